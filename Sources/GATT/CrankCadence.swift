import WorkoutValues

/// Cadence from a sensor's crank revolution data (Cycling Power and Cycling Speed and
/// Cadence send the same pair): the cumulative revolutions (16 bits) and the time of the
/// last crank event (16 bits, 1/1024 s), both wrapping. The cadence is the change in
/// revolutions over the change in event time between two notifications; a notification
/// with the same event time means no crank turned since, and after 3 such seconds the
/// rider has stopped. A cadence outside `SensorQuantity.cadence.plausible` (a counter that went
/// backwards or jumped: 60,000 rpm) is no cadence, and the one before it holds.
public struct CrankCadence: Sendable {
    private var last: (revolutions: UInt16, eventTime: UInt16)?
    private var unchangedSince: Double?
    private var latest: Double?

    public init() {}

    /// Takes a notification's crank data, received at `time` seconds (any clock); returns
    /// the cadence in rpm, or nil until two events give one.
    public mutating func update(revolutions: UInt16, eventTime: UInt16, at time: Double) -> Double? {
        defer { last = (revolutions, eventTime) }
        guard let last else { return nil }
        let turns = revolutions &- last.revolutions
        let ticks = eventTime &- last.eventTime
        if ticks == 0 {
            let since = unchangedSince ?? time
            unchangedSince = since
            if time - since >= 3 { latest = 0 }
            return latest
        }
        unchangedSince = nil
        guard let rpm = SensorQuantity.cadence.plausible(Double(turns) * 60 * 1024 / Double(ticks)) else { return nil }
        latest = rpm
        return latest
    }
}
