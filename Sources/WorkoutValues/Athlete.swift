/// What sensors' values are measured against: the maximum heart rate (for heart-rate
/// zones) and the functional threshold power (for ZWO power targets, a fraction of it).
/// Given as `--set max_hr=190 --set ftp=250`, which every routine takes whether or not
/// it declares them (a routine that declares them reads them too).
public struct Athlete: Sendable, Equatable {
    public var maxHeartRate: Double?
    public var ftp: Double?

    /// The `--set` names every routine takes.
    public static let settingNames: Set<String> = ["max_hr", "ftp"]

    public init(maxHeartRate: Double? = nil, ftp: Double? = nil) {
        self.maxHeartRate = maxHeartRate
        self.ftp = ftp
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
