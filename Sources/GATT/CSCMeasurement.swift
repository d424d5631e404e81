/// The CSC Measurement characteristic (0x2A5B of Cycling Speed and Cadence, 0x1816): a
/// flags byte, the wheel revolution data (32-bit revolutions, 16-bit event time in
/// 1/1024 s) and the crank revolution data (16-bit revolutions, 16-bit event time).
public struct CSCMeasurement: Equatable, Sendable {
    public var wheelRevolutions: UInt32?
    public var wheelEventTime: UInt16?
    public var crank: CyclingPowerMeasurement.CrankData?

    public init?(_ value: [UInt8]) {
        var reader = GATTBytes(value)
        guard let flags = reader.uint8() else { return nil }
        if flags & 0x01 != 0 {
            guard let revolutions = reader.uint32(), let time = reader.uint16() else { return nil }
            wheelRevolutions = revolutions
            wheelEventTime = time
        }
        if flags & 0x02 != 0 {
            guard let revolutions = reader.uint16(), let time = reader.uint16() else { return nil }
            crank = .init(revolutions: revolutions, eventTime: time)
        }
    }
}
