// libmosquitto, the MQTT client library of the mosquitto project, for `run --mqtt`
// (Sources/Broker). Only the threaded interface: mosquitto's own network thread
// (mosquitto_loop_start) reads and writes the socket and reconnects, never the timers'.
//
// libmosquitto is opened with dlopen when a run asks for a broker, not linked, as libpulse
// is (Sources/CPulse/shim.h, docs/design.md): a machine without libmosquitto1 runs every
// other command and only `--mqtt` says it is missing. Its header gives the functions' types
// (`__typeof__`), so the calls are checked as if it were linked.
#ifndef WORKOUT_MOSQUITTO_SHIM_H
#define WORKOUT_MOSQUITTO_SHIM_H

#include <dlfcn.h>
#include <mosquitto.h>

/// The functions the broker connection calls, without their `mosquitto_` prefix.
#define WORKOUT_MOSQUITTO_FUNCTIONS(X) \
    X(lib_init) \
    X(new) \
    X(user_data_set) \
    X(destroy) \
    X(int_option) \
    X(username_pw_set) \
    X(will_set) \
    X(tls_set) \
    X(reconnect_delay_set) \
    X(connect_callback_set) \
    X(disconnect_callback_set) \
    X(message_callback_set) \
    X(log_callback_set) \
    X(connect_async) \
    X(loop_start) \
    X(loop_stop) \
    X(disconnect) \
    X(publish) \
    X(subscribe) \
    X(strerror) \
    X(connack_string)

/// libmosquitto's functions, each `mosquitto_NAME` as the field `NAME`.
struct workout_mosquitto {
#define WORKOUT_MOSQUITTO_FIELD(name) __typeof__(&mosquitto_##name) name;
    WORKOUT_MOSQUITTO_FUNCTIONS(WORKOUT_MOSQUITTO_FIELD)
#undef WORKOUT_MOSQUITTO_FIELD
};

/// Opens libmosquitto.so.1 and fills `api`: 0, or -1 where the library or one of the
/// functions is missing. The library stays loaded: its network thread may outlive a
/// disconnect by a moment.
static inline int workout_mosquitto_open(struct workout_mosquitto *api) {
    void *library = dlopen("libmosquitto.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return -1;
    int missing = 0;
#define WORKOUT_MOSQUITTO_LOOKUP(name) \
    api->name = (__typeof__(&mosquitto_##name))dlsym(library, "mosquitto_" #name); \
    if (api->name == NULL) missing = 1;
    WORKOUT_MOSQUITTO_FUNCTIONS(WORKOUT_MOSQUITTO_LOOKUP)
#undef WORKOUT_MOSQUITTO_LOOKUP
    return missing ? -1 : 0;
}

#endif
