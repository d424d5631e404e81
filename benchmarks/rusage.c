/* Runs one command and writes what it cost, for the benchmark harness.
 *
 *     rusage OUT -- COMMAND [ARGUMENT...]
 *
 * It spawns the command, writes `OUT.pid` at once ({"pid", "spawned"}: the monotonic
 * moment, so the harness can sample /proc while the command runs), reaps it with wait4
 * and writes `OUT` as JSON: CPU in microseconds, voluntary and involuntary context
 * switches, peak RSS. Each file is written to a temporary name and renamed, so the
 * harness never reads half of one.
 *
 * Why C and not Python: Linux carries a process's peak RSS across fork and exec, so a
 * child of a 10-20 MiB interpreter reports at least the interpreter's peak. This parent
 * is about 1 MiB. It ignores Ctrl-C and SIGTERM (the command gets them, with their
 * default actions), so the harness can signal the whole process group.
 */
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double monotonic(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static double seconds(struct timeval value) {
    return (double)value.tv_sec + (double)value.tv_usec / 1e6;
}

/* Writes `text` to `path` through `path.tmp` and a rename. */
static int write_atomically(const char *path, const char *text) {
    char temporary[4096];
    snprintf(temporary, sizeof temporary, "%s.tmp", path);
    FILE *file = fopen(temporary, "w");
    if (!file) return -1;
    fputs(text, file);
    if (fclose(file) != 0) return -1;
    return rename(temporary, path);
}

int main(int argc, char **argv) {
    if (argc < 4 || strcmp(argv[2], "--") != 0) {
        fputs("usage: rusage OUT -- COMMAND [ARGUMENT...]\n", stderr);
        return 64;
    }
    const char *out = argv[1];
    char **command = argv + 3;

    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);

    double started = monotonic();
    pid_t pid;
    int error = posix_spawnp(&pid, command[0], NULL, &attributes, command, environ);
    if (error != 0) {
        fprintf(stderr, "rusage: %s: %s\n", command[0], strerror(error));
        return 127;
    }
    char text[1024];
    char path[4096];
    snprintf(path, sizeof path, "%s.pid", out);
    snprintf(text, sizeof text, "{\"pid\": %d, \"spawned\": %.9f}\n", (int)pid, started);
    if (write_atomically(path, text) != 0) perror("rusage: pid file");

    int status;
    struct rusage usage;
    while (wait4(pid, &status, 0, &usage) < 0) {
        if (errno != EINTR) {
            perror("rusage: wait4");
            return 1;
        }
    }
    double ended = monotonic();
    int code = WIFSIGNALED(status) ? -WTERMSIG(status) : WEXITSTATUS(status);
    snprintf(text, sizeof text,
             "{\"pid\": %d, \"status\": %d, \"wall_s\": %.9f, \"cpu_s\": %.6f, \"user_s\": %.6f, "
             "\"system_s\": %.6f, \"voluntary_switches\": %ld, \"involuntary_switches\": %ld, "
             "\"max_rss_kib\": %ld}\n",
             (int)pid, code, ended - started, seconds(usage.ru_utime) + seconds(usage.ru_stime),
             seconds(usage.ru_utime), seconds(usage.ru_stime), usage.ru_nvcsw, usage.ru_nivcsw, usage.ru_maxrss);
    if (write_atomically(out, text) != 0) {
        perror("rusage: result file");
        return 1;
    }
    return 0;
}
