/// The values a sensor may give that a person on a bike or a treadmill can produce: what
/// falls outside them is a glitch, a strap's placeholder or a lying device, and is taken as
/// no value at all — the decoders drop it, the display shows nothing, the history never
/// sums it. A heart rate of 0 (a strap finding no beat, a trainer without a receiver) or
/// 65,535 (the largest 16-bit rate), a power of −32,768 W, a cadence of 60,000 rpm from a
/// crank counter that went backwards: none of them reach a session.
///
/// The bounds are wide enough for any real effort: heart rates of record are under 230
/// bpm, sprinters' peak power under 2,600 W, track cadences under 250 rpm.
public enum PlausibleReadings {
    /// Beats per minute.
    public static let heartRate = 20...250
    /// Watts: 0 is coasting; below 0 no meter means anything.
    public static let power = 0...3_000
    /// Revolutions per minute; 0 is not pedalling.
    public static let cadence = 0.0...250.0
    /// km/h.
    public static let speed = 0.0...100.0

    public static func heartRate(_ bpm: Int?) -> Int? { bpm.flatMap { heartRate.contains($0) ? $0 : nil } }
    public static func power(_ watts: Int?) -> Int? { watts.flatMap { power.contains($0) ? $0 : nil } }
    public static func cadence(_ rpm: Double?) -> Double? { rpm.flatMap { $0.isFinite && cadence.contains($0) ? $0 : nil } }
    public static func speed(_ kmh: Double?) -> Double? { kmh.flatMap { $0.isFinite && speed.contains($0) ? $0 : nil } }
}

extension SensorSample {
    /// The sample with its implausible values dropped (`PlausibleReadings`).
    public var plausible: SensorSample {
        SensorSample(sensor: sensor, name: name, hr: PlausibleReadings.heartRate(hr), power: PlausibleReadings.power(power),
                     cadence: PlausibleReadings.cadence(cadence), speed: PlausibleReadings.speed(speed))
    }
}
