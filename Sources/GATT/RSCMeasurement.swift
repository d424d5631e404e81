import WorkoutValues

/// The RSC Measurement characteristic (0x2A53 of Running Speed and Cadence, 0x1814), a
/// foot pod's: a flags byte, the speed (1/256 m/s) and cadence (a minute) always, then
/// the stride length (cm) and total distance (0.1 m) when bits 0 and 1 say so; bit 2 is
/// running (set) or walking.
///
/// The cadence is what the pod sends, counted a minute; the specification does not say
/// of what, and pods differ: most count steps (170–180 running), some strides, one per
/// two steps (85–90). workout shows the number as sent.
///
/// A foot pod measures by its own stride model, and runners correct it with a
/// calibration factor (1.02: it reads 2 % short), applied to speed, pace and distance.
public struct RSCMeasurement: Equatable, Sendable {
    /// Speed (km/h), pace (s/km), cadence, distance (m): each plausible, calibrated.
    public var values: [SensorQuantity: Double] = [:]
    /// Stride length, metres, as sent.
    public var strideLength: Double?
    /// Whether the pod says the athlete is running rather than walking.
    public var running: Bool = false

    public init(values: [SensorQuantity: Double], strideLength: Double? = nil, running: Bool = false) {
        self.values = values
        self.strideLength = strideLength
        self.running = running
    }

    /// The factors a pod's calibration may be: anything else is a typing slip.
    public static let calibrationRange = 0.5...2.0

    public init?(_ value: [UInt8], calibration: Double = 1) {
        var reader = GATTBytes(value)
        guard let flags = reader.uint8(), let speed = reader.uint16(), let cadence = reader.uint8() else { return nil }
        let factor = Self.calibrationRange.contains(calibration) ? calibration : 1
        var values: [SensorQuantity: Double] = [:]
        let kmh = Double(speed) / 256 * 3.6 * factor
        values[.speed] = SensorQuantity.speed.plausible(kmh)
        values[.pace] = SensorQuantity.pace.plausible(Pace.secondsPerKilometre(kmh: kmh))
        values[.cadence] = SensorQuantity.cadence.plausible(Double(cadence))
        if flags & 0x01 != 0 {
            guard let stride = reader.uint16() else { return nil }
            strideLength = Double(stride) / 100
        }
        if flags & 0x02 != 0 {
            guard let distance = reader.uint32() else { return nil }
            values[.distance] = SensorQuantity.distance.plausible(Double(distance) / 10 * factor)
        }
        running = flags & 0x04 != 0
        self.values = values
    }
}
