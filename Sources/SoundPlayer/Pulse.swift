import CPulse

/// libpulse's functions (`pulse.stream_write` is `pa_stream_write`), opened with dlopen the
/// first time a run asks for sound (CPulse/shim.h says why it is not linked); nil where
/// libpulse0 is not installed.
nonisolated(unsafe) let pulseLibrary: workout_pulse? = {
    var api = workout_pulse()
    return workout_pulse_open(&api) == 0 ? api : nil
}()

/// The functions, once `PulseOutput.connect` has found the library.
var pulse: workout_pulse { pulseLibrary! }
