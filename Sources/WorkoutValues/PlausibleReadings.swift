/// The values a sensor may give that a person on a bike or a treadmill can produce
/// (`SensorQuantity.plausible`): what falls outside them is a glitch, a strap's placeholder
/// or a lying device, and is taken as no value at all — the decoders drop it, the display
/// shows nothing, the history never sums it. A heart rate of 0 (a strap finding no beat, a
/// trainer without a receiver) or 65,535 (the largest 16-bit rate), a power of −32,768 W,
/// a cadence of 60,000 rpm from a crank counter that went backwards: none of them reach a
/// session.
public enum PlausibleReadings {
    /// A whole quantity's value as the decoders read it, when plausible.
    public static func whole(_ quantity: SensorQuantity, _ value: Int?) -> Int? {
        quantity.plausible(value.map(Double.init)).map { Int($0) }
    }

    /// Beats per minute, when plausible.
    public static func heartRate(_ bpm: Int?) -> Int? { whole(.hr, bpm) }
    /// Watts, when plausible.
    public static func power(_ watts: Int?) -> Int? { whole(.power, watts) }
}

extension SensorSample {
    /// The sample with its implausible values dropped.
    public var plausible: SensorSample {
        var kept: [SensorQuantity: Double] = [:]
        for (quantity, value) in values { kept[quantity] = quantity.plausible(value) }
        return SensorSample(sensor: sensor, name: name, values: kept)
    }
}
