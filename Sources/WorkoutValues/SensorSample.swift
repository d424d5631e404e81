/// What one sensor measured at one moment, as the run hands it to the session: the values
/// a sensor does not measure are nil. Heart rate in beats per minute, power in watts,
/// cadence in rpm, speed in km/h.
public struct SensorSample: Sendable, Equatable {
    /// The sensor's Bluetooth address (C0:FF:EE:00:00:01).
    public var sensor: String
    /// Its name as it advertises itself, escaped where shown.
    public var name: String
    public var hr: Int?
    public var power: Int?
    public var cadence: Double?
    public var speed: Double?

    public init(sensor: String, name: String, hr: Int? = nil, power: Int? = nil, cadence: Double? = nil,
                speed: Double? = nil) {
        self.sensor = sensor
        self.name = name
        self.hr = hr
        self.power = power
        self.cadence = cadence
        self.speed = speed
    }

    /// Whether it carries no value at all (a strap that lost contact).
    public var isEmpty: Bool { hr == nil && power == nil && cadence == nil && speed == nil }
}
