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
        var reader = GATTBytes(value)
        guard let flags = reader.uint16() else { return nil }
        var values: [SensorQuantity: Double] = [:]
        func has(_ bit: Int) -> Bool { flags & (1 << bit) != 0 }
        func read(_ quantity: SensorQuantity, _ raw: Int?, per: Double = 1) -> Bool {
            guard let raw else { return false }
            values[quantity] = quantity.plausible(Double(raw) / per)
            return true
        }
        if !has(0) {
            guard read(.speed, reader.uint16().map(Int.init), per: 100) else { return nil }
            values[.pace] = values[.speed].flatMap { SensorQuantity.pace.plausible(Pace.secondsPerKilometre(kmh: $0)) }
        }
        if has(1), !reader.skip(2) { return nil }  // average speed
        if has(2), !read(.distance, reader.uint24().map(Int.init)) { return nil }
        if has(3) {  // inclination, then ramp angle setting
            guard read(.incline, reader.sint16().map(Int.init), per: 10), reader.skip(2) else { return nil }
        }
        if has(4), !reader.skip(4) { return nil }  // positive and negative elevation gain
        if has(5), !reader.skip(1) { return nil }  // instantaneous pace, 0.1 km/min
        if has(6), !reader.skip(1) { return nil }  // average pace
        if has(7), !reader.skip(5) { return nil }  // total energy, per hour, per minute
        if has(8), !read(.hr, reader.uint8().map(Int.init)) { return nil }
        if has(9), !reader.skip(1) { return nil }  // metabolic equivalent
        if has(10), !reader.skip(2) { return nil }  // elapsed time
        if has(11), !reader.skip(2) { return nil }  // remaining time
        if has(12) {  // force on belt, then power output
            guard reader.skip(2), read(.power, reader.sint16().map(Int.init)) else { return nil }
        }
        self.values = values
    }
}

/// Speeds and paces: a runner reads minutes a kilometre, a rower minutes a 500 m.
public enum Pace {
    /// Seconds a kilometre at `kmh`; infinite standing still (which no quantity holds).
    public static func secondsPerKilometre(kmh: Double) -> Double { kmh > 0 ? 3_600 / kmh : .infinity }

    /// km/h of a 500 m split in seconds.
    public static func kmh(split seconds: Double) -> Double { seconds > 0 ? 1_800 / seconds : 0 }
}
