import WorkoutValues

/// What a treadmill is set to for a segment, from the segment's targets (`Targets`): its
/// `pace` as a speed — a pace as text (`"4:00/km"` is 15 km/h), or percent of the
/// athlete's `threshold_pace` (110 is 10 % faster), a range at its middle — or its
/// `pace_zone` (`"Z2"`, the middle of the zone's percent of threshold speed:
/// `paceZones`), and its `incline` in percent. Never above the athlete's `max_speed`: a faster pace is held at
/// it, and `capped` says so. Nil without either.
public struct TreadmillTarget: Sendable, Equatable {
    /// km/h, nil to leave the speed as it is.
    public var speed: Double?
    /// Percent, nil to leave the incline as it is.
    public var incline: Double?
    /// The speed the pace asked for, when `max_speed` held it lower.
    public var capped: Double?

    public init(speed: Double?, incline: Double?, capped: Double? = nil) {
        (self.speed, self.incline, self.capped) = (speed, incline, capped)
    }

    /// Pace zones in percent of threshold speed, as intervals.icu's defaults have them
    /// (Z1 up to 77.5 % is held from 70 %; Z5 from 100 % to 111.5 %).
    public static let paceZones: [String: ClosedRange<Double>] = [
        "Z1": 70...77.5, "Z2": 77.5...87.7, "Z3": 87.7...94.3, "Z4": 94.3...100, "Z5": 100...111.5,
    ]

    public init?(info: JSONValue, athlete: Athlete) {
        var ignored: Set<String> = []
        let targets = Targets(info: info, ignored: &ignored)
        var speed: Double?
        switch targets[.pace] {
        case .text(let text)?:
            speed = PaceText(text)?.kmh
        case .number?, .range?:
            if let percent = targets.bounds(.pace), let threshold = athlete.thresholdPace, threshold > 0 {
                speed = 3_600 / threshold * (percent.low + percent.high) / 200
            }
        default:
            if case .text(let zone)? = targets[.paceZone], let threshold = athlete.thresholdPace, threshold > 0,
               let range = Self.paceZones[zone.uppercased()] {
                speed = 3_600 / threshold * (range.lowerBound + range.upperBound) / 200
            }
        }
        if let asked = speed, let most = athlete.maxSpeed, asked > most {
            speed = most
            capped = asked
        }
        // To the 0.01 km/h a treadmill takes.
        self.speed = speed.flatMap { $0 > 0 && $0.isFinite ? Number.rounded($0, places: 2) : nil }
        capped = capped.map { Number.rounded($0, places: 2) }
        incline = targets.bounds(.incline).map { ($0.low + $0.high) / 2 }
        guard self.speed != nil || incline != nil else { return nil }
    }
}
