// libpulse, the client library of PulseAudio (and of PipeWire through pipewire-pulse),
// for the sound player (Sources/SoundPlayer). Only the asynchronous API with its threaded
// main loop: the player's work runs on that loop's thread, never on the timers'.
//
// libpulse is opened with dlopen when a run asks for sound, not linked: linked, it loads
// about 30 libraries (libsndfile and its codecs, libX11, libsystemd...) into every
// command, 3 ms of start-up and 3 MiB of memory even for `check` (docs/design.md). Its
// header gives the functions' types (`__typeof__`), so the calls are checked as if it
// were linked.
#ifndef WORKOUT_PULSE_SHIM_H
#define WORKOUT_PULSE_SHIM_H

#include <dlfcn.h>
#include <pulse/pulseaudio.h>
#include <sys/eventfd.h>

/// The functions the player calls, without their `pa_` prefix.
#define WORKOUT_PULSE_FUNCTIONS(X) \
    X(context_connect) \
    X(context_disconnect) \
    X(context_errno) \
    X(context_get_server_info) \
    X(context_get_sink_input_info) \
    X(context_get_sink_input_info_list) \
    X(context_get_sink_info_by_name) \
    X(context_get_state) \
    X(context_new_with_proplist) \
    X(context_rttime_new) \
    X(context_rttime_restart) \
    X(context_set_sink_input_volume) \
    X(context_set_state_callback) \
    X(context_unref) \
    X(operation_unref) \
    X(proplist_free) \
    X(proplist_gets) \
    X(proplist_new) \
    X(proplist_sets) \
    X(rtclock_now) \
    X(stream_connect_playback) \
    X(stream_cork) \
    X(stream_disconnect) \
    X(stream_get_state) \
    X(stream_get_timing_info) \
    X(stream_new_with_proplist) \
    X(stream_set_state_callback) \
    X(stream_set_underflow_callback) \
    X(stream_set_write_callback) \
    X(stream_unref) \
    X(stream_update_timing_info) \
    X(stream_write) \
    X(strerror) \
    X(sw_volume_from_linear) \
    X(sw_volume_to_linear) \
    X(threaded_mainloop_free) \
    X(threaded_mainloop_get_api) \
    X(threaded_mainloop_lock) \
    X(threaded_mainloop_new) \
    X(threaded_mainloop_start) \
    X(threaded_mainloop_stop) \
    X(threaded_mainloop_unlock)

/// libpulse's functions, each `pa_NAME` as the field `NAME`.
struct workout_pulse {
#define WORKOUT_PULSE_FIELD(name) __typeof__(&pa_##name) name;
    WORKOUT_PULSE_FUNCTIONS(WORKOUT_PULSE_FIELD)
#undef WORKOUT_PULSE_FIELD
};

/// Opens libpulse.so.0 and fills `api`: 0, or -1 where the library or one of the
/// functions is missing. The library stays loaded: it is not made to be unloaded.
static inline int workout_pulse_open(struct workout_pulse *api) {
    void *library = dlopen("libpulse.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return -1;
    int missing = 0;
#define WORKOUT_PULSE_LOOKUP(name) \
    api->name = (__typeof__(&pa_##name))dlsym(library, "pa_" #name); \
    if (api->name == NULL) missing = 1;
    WORKOUT_PULSE_FUNCTIONS(WORKOUT_PULSE_LOOKUP)
#undef WORKOUT_PULSE_LOOKUP
    return missing ? -1 : 0;
}

/// A descriptor the run-loop thread writes to wake the audio thread (eventfd: Glibc's
/// Swift module does not export <sys/eventfd.h>).
static inline int workout_wake_fd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

/// PA_USEC_INVALID, a macro Swift does not import.
static inline pa_usec_t workout_usec_invalid(void) { return PA_USEC_INVALID; }

#endif
