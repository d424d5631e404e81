import WorkoutValues

/// The Treadmill Data characteristic (0x2ACD of the Fitness Machine service 0x1826): 16
/// bits of flags, then the fields they announce in order. Bit 0 is "More Data", read the
/// other way round: the instantaneous speed is present when it is clear. The pace is
/// derived from the speed (the machine's own pace field is a byte in 0.1 km/min, too
/// coarse for a runner). A value outside `SensorQuantity.plausible` is nil.
public struct TreadmillData: Equatable, Sendable {
    /// What it carries, each plausible: speed in km/h (received in 0.01 km/h), pace in
    /// s/km, total distance in metres, incline in percent (received in 0.1 %), heart rate
    /// and power when the machine measures them.
    public var values: [SensorQuantity: Double] = [:]

    public init(values: [SensorQuantity: Double]) { self.values = values }

    public init?(_ value: [UInt8]) {
        guard var f = FlaggedFields(value) else { return nil }
        if !f.has(0) {
            guard f.read(.speed, f.reader.uint16().map(Int.init), per: 100) else { return nil }
            f.values[.pace] = f.values[.speed].flatMap { SensorQuantity.pace.plausible(Pace.secondsPerKilometre(kmh: $0)) }
        }
        if f.has(1), !f.reader.skip(2) { return nil }  // average speed
        if f.has(2), !f.read(.distance, f.reader.uint24().map(Int.init)) { return nil }
        if f.has(3) {  // inclination, then ramp angle setting
            guard f.read(.incline, f.reader.sint16().map(Int.init), per: 10), f.reader.skip(2) else { return nil }
        }
        if f.has(4), !f.reader.skip(4) { return nil }  // positive and negative elevation gain
        if f.has(5), !f.reader.skip(1) { return nil }  // instantaneous pace, 0.1 km/min
        if f.has(6), !f.reader.skip(1) { return nil }  // average pace
        if f.has(7), !f.reader.skip(5) { return nil }  // total energy, per hour, per minute
        if f.has(8), !f.read(.hr, f.reader.uint8().map(Int.init)) { return nil }
        if f.has(9), !f.reader.skip(1) { return nil }  // metabolic equivalent
        if f.has(10), !f.reader.skip(2) { return nil }  // elapsed time
        if f.has(11), !f.reader.skip(2) { return nil }  // remaining time
        if f.has(12) {  // force on belt, then power output
            guard f.reader.skip(2), f.read(.power, f.reader.sint16().map(Int.init)) else { return nil }
        }
        values = f.values
    }
}

/// Speeds and paces: a runner reads minutes a kilometre, a rower minutes a 500 m.
public enum Pace {
    /// Seconds a kilometre at `kmh`; infinite standing still (which no quantity holds).
    public static func secondsPerKilometre(kmh: Double) -> Double { kmh > 0 ? 3_600 / kmh : .infinity }

    /// km/h of a 500 m split in seconds.
    public static func kmh(split seconds: Double) -> Double { seconds > 0 ? 1_800 / seconds : 0 }
}
