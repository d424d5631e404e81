/// The five Bluetooth services workout reads, and the characteristics it uses of each
/// (16-bit UUIDs of the Bluetooth SIG's assigned numbers).
public enum SensorService: String, CaseIterable, Sendable {
    case heartRate = "180d"
    case cyclingPower = "1818"
    case speedAndCadence = "1816"
    case fitnessMachine = "1826"
    case runningSpeedAndCadence = "1814"

    /// The words `workout sensors` lists it with.
    public var words: String {
        switch self {
        case .heartRate: "heart rate"
        case .cyclingPower: "power"
        case .speedAndCadence: "speed and cadence"
        case .fitnessMachine: "fitness machine (FTMS)"
        case .runningSpeedAndCadence: "foot pod"
        }
    }

    /// The service a full 128-bit UUID names (0000180d-0000-1000-8000-00805f9b34fb), if it is one of these.
    public init?(uuid: String) {
        guard let short = SensorService.short(uuid) else { return nil }
        self.init(rawValue: short)
    }

    /// The 16-bit part of a Bluetooth base UUID, lower case; nil for any other UUID.
    public static func short(_ uuid: String) -> String? {
        let lower = uuid.lowercased()
        guard lower.count == 36, lower.hasPrefix("0000"), lower.hasSuffix("-0000-1000-8000-00805f9b34fb") else { return nil }
        return String(lower.dropFirst(4).prefix(4))
    }

    /// Measurement characteristics, notified.
    public static let heartRateMeasurement = "2a37"
    public static let cyclingPowerMeasurement = "2a63"
    public static let cscMeasurement = "2a5b"
    public static let indoorBikeData = "2ad2"
    public static let treadmillData = "2acd"
    public static let rowerData = "2ad1"
    public static let rscMeasurement = "2a53"
    /// Written with requests, answered by indications.
    public static let fitnessMachineControlPoint = "2ad9"
    /// A treadmill's: what changed on it (notified), and the speeds and inclines it takes (read).
    public static let fitnessMachineStatus = "2ada"
    public static let supportedSpeedRange = "2ad4"
    public static let supportedInclinationRange = "2ad5"
}
