// The system bus for Bluetooth sensors (Sources/BlueZ) and the session bus for the music
// players lowered under the cues (Sources/Music): sd-bus's functions, opened with dlopen
// when a run or `workout sensors` needs a bus, not linked — no other command loads
// libsystemd. Only sd-bus's non-variadic functions are used, so Swift calls them
// through this table; the header gives their types (`__typeof__`), so the calls are checked
// as if libsystemd were linked.
#ifndef WORKOUT_BUS_H
#define WORKOUT_BUS_H

#include <dlfcn.h>
#include <systemd/sd-bus.h>

typedef struct workout_sd_bus {
    __typeof__(&sd_bus_open_system) open_system;
    __typeof__(&sd_bus_open_user) open_user;
    __typeof__(&sd_bus_wait) wait;
    __typeof__(&sd_bus_flush_close_unref) close;
    __typeof__(&sd_bus_get_fd) get_fd;
    __typeof__(&sd_bus_get_timeout) get_timeout;
    __typeof__(&sd_bus_process) process;
    __typeof__(&sd_bus_flush) flush;
    __typeof__(&sd_bus_message_new_method_call) new_method_call;
    __typeof__(&sd_bus_message_append_basic) append_basic;
    __typeof__(&sd_bus_message_append_array) append_array;
    __typeof__(&sd_bus_message_open_container) open_container;
    __typeof__(&sd_bus_message_close_container) close_container;
    __typeof__(&sd_bus_call_async) call_async;
    __typeof__(&sd_bus_add_match) add_match;
    __typeof__(&sd_bus_slot_unref) slot_unref;
    __typeof__(&sd_bus_message_unref) message_unref;
    __typeof__(&sd_bus_message_peek_type) peek_type;
    __typeof__(&sd_bus_message_read_basic) read_basic;
    __typeof__(&sd_bus_message_read_array) read_array;
    __typeof__(&sd_bus_message_enter_container) enter_container;
    __typeof__(&sd_bus_message_exit_container) exit_container;
    __typeof__(&sd_bus_message_skip) skip;
    __typeof__(&sd_bus_message_get_error) get_error;
    __typeof__(&sd_bus_message_get_path) get_path;
    __typeof__(&sd_bus_message_get_member) get_member;
} workout_sd_bus;

/// Fills `table` from libsystemd.so.0; 0 on success, -1 when the library or one of the
/// functions is missing. libsystemd stays loaded: it is not made to be unloaded.
static inline int workout_sd_bus_load(workout_sd_bus *table) {
    void *library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return -1;
#define WORKOUT_BUS_SYMBOL(field, name) \
    if ((table->field = (__typeof__(table->field))dlsym(library, #name)) == NULL) return -1;
    WORKOUT_BUS_SYMBOL(open_system, sd_bus_open_system)
    WORKOUT_BUS_SYMBOL(open_user, sd_bus_open_user)
    WORKOUT_BUS_SYMBOL(wait, sd_bus_wait)
    WORKOUT_BUS_SYMBOL(close, sd_bus_flush_close_unref)
    WORKOUT_BUS_SYMBOL(get_fd, sd_bus_get_fd)
    WORKOUT_BUS_SYMBOL(get_timeout, sd_bus_get_timeout)
    WORKOUT_BUS_SYMBOL(process, sd_bus_process)
    WORKOUT_BUS_SYMBOL(flush, sd_bus_flush)
    WORKOUT_BUS_SYMBOL(new_method_call, sd_bus_message_new_method_call)
    WORKOUT_BUS_SYMBOL(append_basic, sd_bus_message_append_basic)
    WORKOUT_BUS_SYMBOL(append_array, sd_bus_message_append_array)
    WORKOUT_BUS_SYMBOL(open_container, sd_bus_message_open_container)
    WORKOUT_BUS_SYMBOL(close_container, sd_bus_message_close_container)
    WORKOUT_BUS_SYMBOL(call_async, sd_bus_call_async)
    WORKOUT_BUS_SYMBOL(add_match, sd_bus_add_match)
    WORKOUT_BUS_SYMBOL(slot_unref, sd_bus_slot_unref)
    WORKOUT_BUS_SYMBOL(message_unref, sd_bus_message_unref)
    WORKOUT_BUS_SYMBOL(peek_type, sd_bus_message_peek_type)
    WORKOUT_BUS_SYMBOL(read_basic, sd_bus_message_read_basic)
    WORKOUT_BUS_SYMBOL(read_array, sd_bus_message_read_array)
    WORKOUT_BUS_SYMBOL(enter_container, sd_bus_message_enter_container)
    WORKOUT_BUS_SYMBOL(exit_container, sd_bus_message_exit_container)
    WORKOUT_BUS_SYMBOL(skip, sd_bus_message_skip)
    WORKOUT_BUS_SYMBOL(get_error, sd_bus_message_get_error)
    WORKOUT_BUS_SYMBOL(get_path, sd_bus_message_get_path)
    WORKOUT_BUS_SYMBOL(get_member, sd_bus_message_get_member)
#undef WORKOUT_BUS_SYMBOL
    return 0;
}

#endif
