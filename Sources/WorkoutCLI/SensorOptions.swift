import ArgumentParser

/// `--sensor`, `--no-sensors` and `--no-erg`, the same for `run` and `follow`: the
/// Bluetooth sensors and the trainer the workout reads and sets.
struct SensorOptions: ParsableArguments {
    @Option(name: .customLong("sensor"),
            help: ArgumentHelp("A Bluetooth sensor to connect to instead of the remembered ones (repeatable; see `workout sensors`).",
                               valueName: "address"))
    var sensors: [String] = []

    @Flag(help: "Connect to no sensor, not even the remembered ones.")
    var noSensors = false

    @Flag(help: "Leave a trainer's resistance to the rider: no power targets written to it.")
    var noErg = false

    /// These options' part of a request.
    func apply(to request: inout RunRequest) {
        request.sensors = sensors
        request.noSensors = noSensors
        request.noErg = noErg
    }
}
