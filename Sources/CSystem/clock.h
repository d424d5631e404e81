// The system calls Swift cannot make directly: Glibc's Swift module does not export
// <sys/timerfd.h>, and the engine needs a timer on CLOCK_BOOTTIME to notice a system
// suspend the moment the machine wakes (Scheduling/SuspendDetector.swift); and a POSIX
// timer whose `sigevent` Swift cannot fill in (Lua/Watchdog.swift).
#ifndef WORKOUT_CLOCK_H
#define WORKOUT_CLOCK_H

#include <signal.h>
#include <sys/timerfd.h>
#include <time.h>

/// The watchdog's signal: a real-time one, because SIGALRM belongs to whoever else may
/// share the process (libFuzzer times its inputs with it).
static inline int workout_alarm_signal(void) { return SIGRTMIN + 4; }

/// A timer on CLOCK_MONOTONIC that raises the watchdog's signal when it expires.
static inline int workout_alarm_timer(timer_t *timer) {
    struct sigevent event = {0};
    event.sigev_notify = SIGEV_SIGNAL;
    event.sigev_signo = workout_alarm_signal();
    return timer_create(CLOCK_MONOTONIC, &event, timer);
}

/// Arms the timer to expire at `nanoseconds` of CLOCK_MONOTONIC (0 disarms it).
static inline int workout_alarm_at(timer_t timer, long long nanoseconds) {
    struct itimerspec spec = {0};
    spec.it_value.tv_sec = nanoseconds / 1000000000LL;
    spec.it_value.tv_nsec = nanoseconds % 1000000000LL;
    return timer_settime(timer, TIMER_ABSTIME, &spec, NULL);
}

/// A non-blocking timer descriptor on the clock that keeps counting during suspend.
static inline int workout_boottime_timer(void) {
    return timerfd_create(CLOCK_BOOTTIME, TFD_NONBLOCK | TFD_CLOEXEC);
}

/// Arms the timer to expire once, `nanoseconds` from now (0 disarms it).
static inline int workout_arm_timer(int fd, long long nanoseconds) {
    struct itimerspec spec = {0};
    spec.it_value.tv_sec = nanoseconds / 1000000000LL;
    spec.it_value.tv_nsec = nanoseconds % 1000000000LL;
    return timerfd_settime(fd, 0, &spec, NULL);
}

static inline unsigned long long workout_clock_ns(clockid_t clock) {
    struct timespec spec;
    clock_gettime(clock, &spec);
    return (unsigned long long)spec.tv_sec * 1000000000ULL + (unsigned long long)spec.tv_nsec;
}

static inline unsigned long long workout_boottime_ns(void) { return workout_clock_ns(CLOCK_BOOTTIME); }

#endif
