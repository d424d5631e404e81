// Keeping the computer awake during a workout (System/SleepInhibitor.swift): one call to
// logind's Inhibit over D-Bus through sd-bus. libsystemd is opened with dlopen when a
// run asks, not linked: no other command pays for loading it, and where it is missing
// nothing happens. Its header gives the functions' types (`__typeof__`), so the calls
// are checked as if it were linked. C, because sd-bus takes variadic arguments.
#ifndef WORKOUT_INHIBIT_H
#define WORKOUT_INHIBIT_H

#include <dlfcn.h>
#include <fcntl.h>
#include <systemd/sd-bus.h>
#include <unistd.h>

/// Asks org.freedesktop.login1 on the system bus (or the bus DBUS_SYSTEM_BUS_ADDRESS
/// names) for an inhibitor lock: `what` ("sleep:idle"), `who`, `why`, `mode` ("block").
/// Returns the lock's descriptor, close-on-exec (closing it releases the lock; so does
/// the process ending, however it ends), or -1: no libsystemd, no bus, no logind, or no
/// answer within `timeout_us`.
static inline int workout_inhibit(const char *what, const char *who, const char *why, const char *mode,
                                  unsigned long long timeout_us) {
    void *library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return -1;
    __typeof__(&sd_bus_open_system) open_system = (__typeof__(&sd_bus_open_system))dlsym(library, "sd_bus_open_system");
    __typeof__(&sd_bus_set_method_call_timeout) set_timeout =
        (__typeof__(&sd_bus_set_method_call_timeout))dlsym(library, "sd_bus_set_method_call_timeout");
    __typeof__(&sd_bus_call_method) call_method = (__typeof__(&sd_bus_call_method))dlsym(library, "sd_bus_call_method");
    __typeof__(&sd_bus_message_read) read_message = (__typeof__(&sd_bus_message_read))dlsym(library, "sd_bus_message_read");
    __typeof__(&sd_bus_message_unref) unref_message = (__typeof__(&sd_bus_message_unref))dlsym(library, "sd_bus_message_unref");
    __typeof__(&sd_bus_error_free) free_error = (__typeof__(&sd_bus_error_free))dlsym(library, "sd_bus_error_free");
    __typeof__(&sd_bus_flush_close_unref) close_bus = (__typeof__(&sd_bus_flush_close_unref))dlsym(library, "sd_bus_flush_close_unref");
    // libsystemd stays loaded: it is not made to be unloaded.
    if (!open_system || !set_timeout || !call_method || !read_message || !unref_message || !free_error || !close_bus)
        return -1;
    sd_bus *bus = NULL;
    if (open_system(&bus) < 0) return -1;
    set_timeout(bus, timeout_us);
    sd_bus_error error = SD_BUS_ERROR_NULL;
    sd_bus_message *reply = NULL;
    int held = -1;
    if (call_method(bus, "org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.login1.Manager",
                    "Inhibit", &error, &reply, "ssss", what, who, why, mode) >= 0) {
        int lock = -1;
        // The reply owns the descriptor it carries: keep a copy of our own.
        if (read_message(reply, "h", &lock) >= 0 && lock >= 0) held = fcntl(lock, F_DUPFD_CLOEXEC, 3);
    }
    free_error(&error);
    unref_message(reply);
    close_bus(bus);
    return held;
}

#endif
