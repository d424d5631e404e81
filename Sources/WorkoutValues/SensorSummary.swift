/// Heart rate and power over a session, or over an open segment, as the history keeps
/// them: `"hr": {"avg", "max", "zones": [seconds in zones 1–5]}` and `"power": {"avg"}`,
/// each only when the sensors gave it (written and read by the `History` module). Read back
/// by `workout history` and a routine's `history`.
public struct SensorSummary: Sendable, Equatable {
    /// Beats per minute, weighted by time; nil when only a maximum was seen.
    public var averageHR: Double?
    public var maxHR: Int?
    /// Seconds in zones 1–5 (index 0 is zone 1); zero without a maximum heart rate to
    /// read the zones against.
    public var zoneSeconds: [Double]?
    /// Watts, weighted by time.
    public var averagePower: Double?

    public init(averageHR: Double? = nil, maxHR: Int? = nil, zoneSeconds: [Double]? = nil, averagePower: Double? = nil) {
        self.averageHR = averageHR
        self.maxHR = maxHR
        self.zoneSeconds = zoneSeconds
        self.averagePower = averagePower
    }
}
