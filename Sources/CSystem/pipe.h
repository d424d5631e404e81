// How much a pipe can take without blocking its writer (WorkoutCLI's EventStream).
#ifndef WORKOUT_PIPE_H
#define WORKOUT_PIPE_H

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#ifndef F_GETPIPE_SZ
#define F_GETPIPE_SZ 1032  // F_LINUX_SPECIFIC_BASE + 8 (Linux 2.6.35), declared under _GNU_SOURCE
#endif

/// The capacity of the pipe `fd` writes to, in bytes; -1 when `fd` is not a pipe.
static inline int workout_pipe_capacity(int fd) {
    struct stat status;
    if (fstat(fd, &status) != 0 || !S_ISFIFO(status.st_mode)) return -1;
    return fcntl(fd, F_GETPIPE_SZ);
}

/// The bytes written to the pipe `fd` and not read yet; -1 when it cannot say.
static inline int workout_pipe_unread(int fd) {
    int unread = 0;
    return ioctl(fd, FIONREAD, &unread) == 0 ? unread : -1;
}

#endif
