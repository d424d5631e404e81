// sd-bus, libsystemd's D-Bus client, for the DBus module (Sources/DBus): the system bus of
// BlueZ and logind, the session bus of the music players. Opened with dlopen when a run or
// `workout sensors` needs a bus, not linked: no other command loads libsystemd. Only
// sd-bus's non-variadic functions are used, so Swift calls them through this one table;
// the header (Debian's libsystemd-dev) gives their types (`__typeof__`), so the calls are
// checked as if libsystemd were linked.
#ifndef WORKOUT_SD_BUS_SHIM_H
#define WORKOUT_SD_BUS_SHIM_H

#include <dlfcn.h>
#include <systemd/sd-bus.h>

/// The functions the DBus module calls: each `sd_bus_NAME` as the field `NAME`.
#define WORKOUT_SD_BUS_FUNCTIONS(X) \
    X(open_system) \
    X(open_user) \
    X(wait) \
    X(flush_close_unref) \
    X(get_fd) \
    X(get_timeout) \
    X(process) \
    X(flush) \
    X(call) \
    X(call_async) \
    X(add_match) \
    X(slot_unref) \
    X(error_free) \
    X(message_new_method_call) \
    X(message_append_basic) \
    X(message_append_array) \
    X(message_open_container) \
    X(message_close_container) \
    X(message_unref) \
    X(message_peek_type) \
    X(message_read_basic) \
    X(message_read_array) \
    X(message_enter_container) \
    X(message_exit_container) \
    X(message_get_error) \
    X(message_get_path) \
    X(message_get_member)

/// sd-bus's functions, each `sd_bus_NAME` as the field `NAME`.
typedef struct workout_sd_bus {
#define WORKOUT_SD_BUS_FIELD(name) __typeof__(&sd_bus_##name) name;
    WORKOUT_SD_BUS_FUNCTIONS(WORKOUT_SD_BUS_FIELD)
#undef WORKOUT_SD_BUS_FIELD
} workout_sd_bus;

/// Fills `table` from libsystemd.so.0: 0, or -1 when the library or one of the functions
/// is missing. libsystemd stays loaded: it is not made to be unloaded.
static inline int workout_sd_bus_load(workout_sd_bus *table) {
    void *library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return -1;
    int missing = 0;
#define WORKOUT_SD_BUS_LOOKUP(name) \
    table->name = (__typeof__(&sd_bus_##name))dlsym(library, "sd_bus_" #name); \
    if (table->name == NULL) missing = 1;
    WORKOUT_SD_BUS_FUNCTIONS(WORKOUT_SD_BUS_LOOKUP)
#undef WORKOUT_SD_BUS_LOOKUP
    return missing ? -1 : 0;
}

#endif
