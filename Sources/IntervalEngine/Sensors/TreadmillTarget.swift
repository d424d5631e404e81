import WorkoutValues

/// What a treadmill is set to for a segment, from the segment's targets (`Targets`): its
/// `pace` as a speed — a pace as text (`"4:00/km"` is 15 km/h), or percent of the
/// athlete's `threshold_pace` (110 is 10 % faster), a range at its middle — and its
/// `incline` in percent. Never above the athlete's `max_speed`: a faster pace is held at
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
            break
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
