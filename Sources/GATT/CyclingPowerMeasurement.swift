import WorkoutValues

/// The Cycling Power Measurement characteristic (0x2A63 of the Cycling Power service
/// 0x1818): 16 bits of flags, the instantaneous power (signed 16 bits, watts), then the
/// optional fields in the order the specification gives. Only the crank revolution data is
/// kept of them (for cadence); the ones before it are passed over by their sizes.
public struct CyclingPowerMeasurement: Equatable, Sendable {
    /// Nil when the value sent is not a plausible power (`PlausibleReadings.power`: −32,768 W).
    public var watts: Int?
    /// Cumulative crank revolutions and the last crank event's time (1/1024 s).
    public var crank: CrankData?

    public struct CrankData: Equatable, Sendable {
        public var revolutions: UInt16
        public var eventTime: UInt16
        public init(revolutions: UInt16, eventTime: UInt16) {
            self.revolutions = revolutions
            self.eventTime = eventTime
        }
    }

    public init(watts: Int?, crank: CrankData? = nil) {
        self.watts = watts
        self.crank = crank
    }

    public init?(_ value: [UInt8]) {
        var reader = GATTBytes(value)
        guard let flags = reader.uint16(), let power = reader.sint16() else { return nil }
        watts = PlausibleReadings.power(Int(power))
        // Pedal power balance (1 byte), accumulated torque (2), wheel revolution data (4 + 2).
        if flags & 0x0001 != 0, !reader.skip(1) { return nil }
        if flags & 0x0004 != 0, !reader.skip(2) { return nil }
        if flags & 0x0010 != 0, !reader.skip(6) { return nil }
        if flags & 0x0020 != 0 {
            guard let revolutions = reader.uint16(), let time = reader.uint16() else { return nil }
            crank = CrankData(revolutions: revolutions, eventTime: time)
        } else {
            crank = nil
        }
    }
}
