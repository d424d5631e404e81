// What starting and watching a child process needs that Swift's Glibc module does not
// export (Platform/ChildProcess.swift): glibc declares these only under _GNU_SOURCE.
#ifndef WORKOUT_PROCESS_H
#define WORKOUT_PROCESS_H

#include <spawn.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

/// Closes every descriptor from `low` up in the child (glibc 2.34): a child never holds
/// workout's own pipes, sockets or files.
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int low);

/// A descriptor that becomes readable when the process ends (Linux 5.3), so one `poll`
/// waits for the child's exit, its output and a timeout at once. -1 where unavailable.
static inline int workout_pidfd_open(pid_t pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    return -1;
#endif
}

#endif
