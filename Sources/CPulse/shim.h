// libpulse, the client library of PulseAudio (and of PipeWire through pipewire-pulse),
// for the sound player (Sources/SoundServer). Only the asynchronous API with its threaded
// main loop: the player's work runs on that loop's thread, never on the timers'.
#ifndef WORKOUT_PULSE_SHIM_H
#define WORKOUT_PULSE_SHIM_H

#include <pulse/pulseaudio.h>
#include <sys/eventfd.h>

/// A descriptor the run-loop thread writes to wake the audio thread (eventfd: Glibc's
/// Swift module does not export <sys/eventfd.h>).
static inline int workout_wake_fd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

/// PA_USEC_INVALID and PA_STREAM_NOFLAGS-style macros Swift does not import.
static inline pa_usec_t workout_usec_invalid(void) { return PA_USEC_INVALID; }

#endif
