/// What one sensor measured at one moment, as the run hands it to the session: a value
/// for each quantity it measures (`SensorQuantity`, whose units these are), none for the
/// others.
public struct SensorSample: Sendable, Equatable {
    /// The sensor's Bluetooth address (C0:FF:EE:00:00:01).
    public var sensor: String
    /// Its name as it advertises itself, escaped where shown.
    public var name: String
    public var values: [SensorQuantity: Double]

    public init(sensor: String, name: String, values: [SensorQuantity: Double] = [:]) {
        self.sensor = sensor
        self.name = name
        self.values = values
    }

    public subscript(quantity: SensorQuantity) -> Double? {
        get { values[quantity] }
        set { values[quantity] = newValue }
    }

    /// Whether it carries no value at all (a strap that lost contact).
    public var isEmpty: Bool { values.isEmpty }
}

extension SensorSample {
    /// A sample by its quantities' names, as the tests write one.
    public init(sensor: String, name: String, hr: Int? = nil, power: Int? = nil, cadence: Double? = nil,
                speed: Double? = nil) {
        self.init(sensor: sensor, name: name)
        self[.hr] = hr.map(Double.init)
        self[.power] = power.map(Double.init)
        self[.cadence] = cadence
        self[.speed] = speed
    }
}
