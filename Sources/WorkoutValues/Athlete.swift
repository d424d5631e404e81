/// What sensors' values are measured against: the maximum heart rate (for heart-rate
/// zones) and the functional threshold power (for ZWO power targets, a fraction of it).
/// Given as `--set max_hr=190 --set ftp=250`, which every routine takes whether or not
/// it declares them (a routine that declares them reads them too).
///
/// A runner's and a rower's: `threshold_pace = 4:30/km` (what `pace = 95` and pace zones
/// are read against), `foot_pod_factor = 1.02` (a foot pod's calibration) and
/// `max_speed = 16` (km/h: no treadmill is ever asked for more).
public struct Athlete: Sendable, Equatable {
    public var maxHeartRate: Double?
    public var ftp: Double?
    /// Threshold pace, seconds a kilometre.
    public var thresholdPace: Double?
    /// A foot pod's calibration factor: its speed and distance are multiplied by it.
    public var footPodFactor: Double = 1
    /// The fastest a treadmill may be set, km/h.
    public var maxSpeed: Double?

    /// The `--set` names every routine takes.
    public static let settingNames: Set<String> = ["max_hr", "ftp", "threshold_pace", "foot_pod_factor", "max_speed"]

    public init(maxHeartRate: Double? = nil, ftp: Double? = nil, thresholdPace: Double? = nil) {
        self.maxHeartRate = maxHeartRate
        self.ftp = ftp
        self.thresholdPace = thresholdPace
    }

    /// A setting's value from its text, as that setting takes it, else nil: `threshold_pace`
    /// a pace (`4:30/km`, in seconds a kilometre), `foot_pod_factor` 0.5 to 2, `max_speed`
    /// above 0 and at most 40 km/h, the others a positive number under 10,000.
    public static func value(_ name: String, _ text: String, decimal: (String) -> Double?) -> Double? {
        switch name {
        case "threshold_pace":
            return PaceText(text).map(\.perKilometre)
        case "foot_pod_factor":
            return decimal(text).flatMap { (0.5...2).contains($0) ? $0 : nil }
        case "max_speed":
            return decimal(text).flatMap { $0 > 0 && $0 <= 40 ? $0 : nil }
        default:
            return decimal(text).flatMap { $0 > 0 && $0 < 10_000 ? $0 : nil }
        }
    }

    /// What a setting must be, for a message.
    public static func expected(_ name: String) -> String {
        switch name {
        case "threshold_pace": PaceText.expected
        case "foot_pod_factor": "a factor from 0.5 to 2"
        case "max_speed": "a speed in km/h above 0, at most 40"
        default: "a positive number"
        }
    }

    /// The heart-rate zone (1–5) of `bpm`, by percent of the maximum: below 60 % is 1,
    /// 60–70 % 2, 70–80 % 3, 80–90 % 4, from 90 % 5. Nil without a maximum.
    public func zone(heartRate bpm: Int) -> Int? {
        guard let maxHeartRate else { return nil }
        let percent = Double(bpm) / maxHeartRate * 100
        switch percent {
        case ..<60: return 1
        case ..<70: return 2
        case ..<80: return 3
        case ..<90: return 4
        default: return 5
        }
    }
}
