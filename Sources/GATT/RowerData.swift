import WorkoutValues

/// The Rower Data characteristic (0x2AD1 of the Fitness Machine service 0x1826): 16 bits
/// of flags, then the fields they announce in order. Bit 0 is "More Data", read the other
/// way round: the stroke rate (0.5 strokes a minute) and the stroke count are present
/// when it is clear. The speed is derived from the split (s/500 m), so that activity
/// files, which read pace from speed, have it. A value outside
/// `SensorQuantity.plausible` (a split of 0 while the flywheel stands) is nil.
public struct RowerData: Equatable, Sendable {
    /// Stroke rate, split, speed, total distance, power, heart rate: each plausible.
    public var values: [SensorQuantity: Double] = [:]
    /// The strokes counted since the machine started, when sent: a stroke rate that
    /// changes while this stands still is a machine making rates up.
    public var strokeCount: Int?

    public init(values: [SensorQuantity: Double], strokeCount: Int? = nil) {
        self.values = values
        self.strokeCount = strokeCount
    }

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
            guard read(.strokeRate, reader.uint8().map(Int.init), per: 2), let count = reader.uint16() else { return nil }
            strokeCount = Int(count)
        }
        if has(1), !reader.skip(1) { return nil }  // average stroke rate
        if has(2), !read(.distance, reader.uint24().map(Int.init)) { return nil }
        if has(3) {
            guard read(.split, reader.uint16().map(Int.init)) else { return nil }
            values[.speed] = values[.split].flatMap { SensorQuantity.speed.plausible(Pace.kmh(split: $0)) }
        }
        if has(4), !reader.skip(2) { return nil }  // average pace
        if has(5), !read(.power, reader.sint16().map(Int.init)) { return nil }
        if has(6), !reader.skip(2) { return nil }  // average power
        if has(7), !reader.skip(2) { return nil }  // resistance level
        if has(8), !reader.skip(5) { return nil }  // total energy, per hour, per minute
        if has(9), !read(.hr, reader.uint8().map(Int.init)) { return nil }
        self.values = values
    }
}
