/// The sensors' figures over a session, or over an open segment, as the history keeps
/// them: for each quantity that keeps figures (`SensorQuantity.history`), its average and
/// maximum, and heart rate's seconds in zones 1–5, as
/// `"hr": {"avg", "max", "zones": […]}` and `"power": {"avg"}`, each only when the sensors
/// gave it (written and read by the `History` module). Read back by `workout history` and a
/// routine's `history`.
public struct SensorSummary: Sendable, Equatable {
    /// Weighted by time; a quantity that keeps a maximum may have that without an average.
    public var averages: [SensorQuantity: Double]
    public var maxima: [SensorQuantity: Double]
    /// Seconds in heart-rate zones 1–5 (index 0 is zone 1); zero without a maximum heart
    /// rate to read the zones against.
    public var zoneSeconds: [Double]?

    public init(averages: [SensorQuantity: Double] = [:], maxima: [SensorQuantity: Double] = [:], zoneSeconds: [Double]? = nil) {
        self.averages = averages
        self.maxima = maxima
        self.zoneSeconds = zoneSeconds
    }

    /// A figure of a quantity.
    public subscript(quantity: SensorQuantity, figure: SensorQuantity.Figure) -> Double? {
        get { figure == .average ? averages[quantity] : maxima[quantity] }
        set { if figure == .average { averages[quantity] = newValue } else { maxima[quantity] = newValue } }
    }
}

extension SensorSummary {
    /// A summary by its figures' names, as `workout history` and the tests write one.
    public init(averageHR: Double? = nil, maxHR: Int? = nil, zoneSeconds: [Double]? = nil, averagePower: Double? = nil) {
        self.init(zoneSeconds: zoneSeconds)
        averages[.hr] = averageHR
        maxima[.hr] = maxHR.map(Double.init)
        averages[.power] = averagePower
    }

    public var averageHR: Double? { averages[.hr] }
    /// Nil also for a maximum no `Int` holds.
    public var maxHR: Int? { maxima[.hr].flatMap { Int(exactly: $0) } }
    public var averagePower: Double? { averages[.power] }
}
