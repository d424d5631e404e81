import CPulse

/// libpulse's functions (`pulse.stream_write` is `pa_stream_write`), opened with dlopen the
/// first time a run asks for sound (CPulse/shim.h says why it is not linked); nil where
/// libpulse0 is not installed.
let pulseLibrary: workout_pulse? = {
    var api = workout_pulse()
    return workout_pulse_open(&api) == 0 ? api : nil
}()

/// The functions, once `PulseOutput.connect` has found the library.
var pulse: workout_pulse { pulseLibrary! }

/// A context of the application "workout" (the name the desktop's sound settings show),
/// named `name` for the server's logs. With the main loop locked.
func newContext(_ api: UnsafeMutablePointer<pa_mainloop_api>, name: String) -> OpaquePointer? {
    let properties = pulse.proplist_new!()
    defer { pulse.proplist_free!(properties) }
    _ = pulse.proplist_sets!(properties, PA_PROP_APPLICATION_NAME, "workout")
    _ = pulse.proplist_sets!(properties, PA_PROP_APPLICATION_ID, "workout")
    return pulse.context_new_with_proplist!(api, name, properties)
}
