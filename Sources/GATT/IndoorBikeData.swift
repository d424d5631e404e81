import IntervalEngine

/// The Indoor Bike Data characteristic (0x2AD2 of the Fitness Machine service 0x1826): 16
/// bits of flags, then the fields they announce in order. Bit 0 is "More Data", read the
/// other way round: the instantaneous speed is present when it is clear. A value outside
/// `PlausibleReadings` (a heart rate of 0 from a trainer without a receiver) is nil.
public struct IndoorBikeData: Equatable, Sendable {
    /// km/h (received in 0.01 km/h).
    public var speed: Double?
    /// rpm (received in 0.5 rpm).
    public var cadence: Double?
    /// Watts.
    public var power: Int?
    /// Beats per minute, when the machine has a heart-rate receiver of its own.
    public var heartRate: Int?

    public init(speed: Double? = nil, cadence: Double? = nil, power: Int? = nil, heartRate: Int? = nil) {
        self.speed = speed
        self.cadence = cadence
        self.power = power
        self.heartRate = heartRate
    }

    public init?(_ value: [UInt8]) {
        var reader = GATTBytes(value)
        guard let flags = reader.uint16() else { return nil }
        func has(_ bit: Int) -> Bool { flags & (1 << bit) != 0 }
        if !has(0) {
            guard let raw = reader.uint16() else { return nil }
            speed = PlausibleReadings.speed(Double(raw) / 100)
        }
        if has(1), !reader.skip(2) { return nil }  // average speed
        if has(2) {
            guard let raw = reader.uint16() else { return nil }
            cadence = PlausibleReadings.cadence(Double(raw) / 2)
        }
        if has(3), !reader.skip(2) { return nil }  // average cadence
        if has(4), !reader.skip(3) { return nil }  // total distance
        if has(5), !reader.skip(2) { return nil }  // resistance level
        if has(6) {
            guard let raw = reader.sint16() else { return nil }
            power = PlausibleReadings.power(Int(raw))
        }
        if has(7), !reader.skip(2) { return nil }  // average power
        if has(8), !reader.skip(5) { return nil }  // total energy, per hour, per minute
        if has(9) {
            guard let raw = reader.uint8() else { return nil }
            heartRate = PlausibleReadings.heartRate(Int(raw))
        }
    }
}
