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
        var reader = GATTBytes(value)
        guard let flags = reader.uint16() else { return nil }
        var values: [SensorQuantity: Double] = [:]
        func has(_ bit: Int) -> Bool { flags & (1 << bit) != 0 }
        /// Reads a field into `quantity`, plausible, in units of 1/`per`; false when the bytes end.
        func read(_ quantity: SensorQuantity, _ raw: Int?, per: Double = 1) -> Bool {
            guard let raw else { return false }
            values[quantity] = quantity.plausible(Double(raw) / per)
            return true
        }
        if !has(0), !read(.speed, reader.uint16().map(Int.init), per: 100) { return nil }
        if has(1), !reader.skip(2) { return nil }  // average speed
        if has(2), !read(.cadence, reader.uint16().map(Int.init), per: 2) { return nil }
        if has(3), !reader.skip(2) { return nil }  // average cadence
        if has(4), !reader.skip(3) { return nil }  // total distance
        if has(5), !reader.skip(2) { return nil }  // resistance level
        if has(6), !read(.power, reader.sint16().map(Int.init)) { return nil }
        if has(7), !reader.skip(2) { return nil }  // average power
        if has(8), !reader.skip(5) { return nil }  // total energy, per hour, per minute
        if has(9), !read(.hr, reader.uint8().map(Int.init)) { return nil }
        self.values = values
    }
}
