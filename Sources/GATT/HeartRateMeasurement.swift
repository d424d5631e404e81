import WorkoutValues

/// The Heart Rate Measurement characteristic (0x2A37 of the Heart Rate service 0x180D): a
/// flags byte, the rate as 8 or 16 bits, then optionally the energy expended and the
/// R-R intervals (in 1/1024 s). A rate outside `PlausibleReadings.heartRate` (a strap's 0
/// when it finds no beat, 65,535) is no rate: `bpm` is nil, and the contact flag still counts.
public struct HeartRateMeasurement: Equatable, Sendable {
    /// Beats per minute; nil when the value sent is not a plausible heart rate.
    public var bpm: Int?
    /// Whether the strap touches skin: nil when the sensor does not say (flags bit 2 clear).
    public var contact: Bool?
    /// Kilojoules since the sensor was reset, when it sends them.
    public var energyExpended: Int?
    /// The R-R intervals in this notification, in seconds (received as 1/1024 s).
    public var rrIntervals: [Double]

    public init(bpm: Int?, contact: Bool? = nil, energyExpended: Int? = nil, rrIntervals: [Double] = []) {
        self.bpm = bpm
        self.contact = contact
        self.energyExpended = energyExpended
        self.rrIntervals = rrIntervals
    }

    /// The measurement in `value`, or nil when it is shorter than its flags say.
    public init?(_ value: [UInt8]) {
        var reader = GATTBytes(value)
        guard let flags = reader.uint8() else { return nil }
        let rate: Int?
        if flags & 0x01 != 0 { rate = reader.uint16().map(Int.init) } else { rate = reader.uint8().map(Int.init) }
        guard let rate else { return nil }
        bpm = PlausibleReadings.heartRate(rate)
        contact = flags & 0x04 != 0 ? flags & 0x02 != 0 : nil
        if flags & 0x08 != 0 {
            guard let energy = reader.uint16() else { return nil }
            energyExpended = Int(energy)
        } else {
            energyExpended = nil
        }
        var intervals: [Double] = []
        if flags & 0x10 != 0 {
            while let interval = reader.uint16() { intervals.append(Double(interval) / 1024) }
        }
        rrIntervals = intervals
    }
}
