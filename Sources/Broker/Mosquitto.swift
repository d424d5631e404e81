import CMosquitto

/// libmosquitto's functions (`mosquitto.publish` is `mosquitto_publish`), opened with
/// dlopen the first time a run asks for a broker (CMosquitto/shim.h says why it is not
/// linked); nil where libmosquitto1 is not installed. `lib_init` once, here: it is not
/// thread safe, and this runs once.
let mosquittoLibrary: workout_mosquitto? = {
    var api = workout_mosquitto()
    guard workout_mosquitto_open(&api) == 0 else { return nil }
    _ = api.lib_init!()
    return api
}()

/// The functions, once `BrokerConnection.open` has found the library.
var mosquitto: workout_mosquitto { mosquittoLibrary! }
