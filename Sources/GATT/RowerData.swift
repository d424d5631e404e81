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
        guard var f = FlaggedFields(value) else { return nil }
        if !f.has(0) {
            guard f.read(.strokeRate, f.reader.uint8().map(Int.init), per: 2), let count = f.reader.uint16() else { return nil }
            strokeCount = Int(count)
        }
        if f.has(1), !f.reader.skip(1) { return nil }  // average stroke rate
        if f.has(2), !f.read(.distance, f.reader.uint24().map(Int.init)) { return nil }
        if f.has(3) {
            guard f.read(.split, f.reader.uint16().map(Int.init)) else { return nil }
            f.values[.speed] = f.values[.split].flatMap { SensorQuantity.speed.plausible(Pace.kmh(split: $0)) }
        }
        if f.has(4), !f.reader.skip(2) { return nil }  // average pace
        if f.has(5), !f.read(.power, f.reader.sint16().map(Int.init)) { return nil }
        if f.has(6), !f.reader.skip(2) { return nil }  // average power
        if f.has(7), !f.reader.skip(2) { return nil }  // resistance level
        if f.has(8), !f.reader.skip(5) { return nil }  // total energy, per hour, per minute
        if f.has(9), !f.read(.hr, f.reader.uint8().map(Int.init)) { return nil }
        values = f.values
    }
}
