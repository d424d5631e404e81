import WorkoutValues

/// The Indoor Bike Data characteristic (0x2AD2 of the Fitness Machine service 0x1826): 16
/// bits of flags, then the fields they announce in order. Bit 0 is "More Data", read the
/// other way round: the instantaneous speed is present when it is clear. A value outside
/// `SensorQuantity.plausible` (a heart rate of 0 from a trainer without a receiver) is nil.
public struct IndoorBikeData: Equatable, Sendable {
    /// What it carries, each plausible: speed in km/h (received in 0.01 km/h), cadence in
    /// rpm (in 0.5 rpm), power in watts, heart rate when the machine has a receiver of its
    /// own. A quantity it carries that `SensorQuantity` gains is one line below.
    public var values: [SensorQuantity: Double] = [:]

    public init(speed: Double? = nil, cadence: Double? = nil, power: Int? = nil, heartRate: Int? = nil) {
        values[.speed] = speed
        values[.cadence] = cadence
        values[.power] = power.map(Double.init)
        values[.hr] = heartRate.map(Double.init)
    }

    public var speed: Double? { values[.speed] }
    public var cadence: Double? { values[.cadence] }
    public var power: Int? { values[.power].map { Int($0) } }
    public var heartRate: Int? { values[.hr].map { Int($0) } }

    public init?(_ value: [UInt8]) {
        guard var f = FlaggedFields(value) else { return nil }
        if !f.has(0), !f.read(.speed, f.reader.uint16().map(Int.init), per: 100) { return nil }
        if f.has(1), !f.reader.skip(2) { return nil }  // average speed
        if f.has(2), !f.read(.cadence, f.reader.uint16().map(Int.init), per: 2) { return nil }
        if f.has(3), !f.reader.skip(2) { return nil }  // average cadence
        if f.has(4), !f.reader.skip(3) { return nil }  // total distance
        if f.has(5), !f.reader.skip(2) { return nil }  // resistance level
        if f.has(6), !f.read(.power, f.reader.sint16().map(Int.init)) { return nil }
        if f.has(7), !f.reader.skip(2) { return nil }  // average power
        if f.has(8), !f.reader.skip(5) { return nil }  // total energy, per hour, per minute
        if f.has(9), !f.read(.hr, f.reader.uint8().map(Int.init)) { return nil }
        values = f.values
    }
}
