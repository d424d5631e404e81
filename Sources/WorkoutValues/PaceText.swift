/// A pace as a runner or a rower writes it: `4:00/km`, `6:26/mi`, `1:55/500m`; a time a
/// distance, the time `m:ss` (or `h:mm:ss`) and the distance one of `km`, `mi`, `500m`,
/// `400m`, `100m`. Read the same way in a routine's `pace = "4:00/km"`, the athlete file's
/// `threshold_pace` and an imported workout, so that what one takes another does too.
public struct PaceText: Equatable, Sendable {
    /// Seconds for `metres`.
    public var seconds: Double
    /// The distance the time is for, in metres.
    public var metres: Double
    /// The distance as written after the slash (`km`, `500m`).
    public var per: String

    /// The distances a pace may be given for, and their metres.
    public static let distances: [(name: String, metres: Double)] = [
        ("km", 1_000), ("mi", 1_609.344), ("500m", 500), ("400m", 400), ("100m", 100),
    ]

    /// What a message says was expected.
    public static let expected = "a pace such as 4:00/km, 6:26/mi or 1:55/500m"

    public init(seconds: Double, metres: Double, per: String) {
        (self.seconds, self.metres, self.per) = (seconds, metres, per)
    }

    /// Nil for anything that is not a pace with a distance, or a time of 0.
    public init?(_ text: String) {
        let trimmed = text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
        let parts = String(trimmed).lowercased().split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let distance = Self.distances.first(where: { $0.name == parts[1] }),
              let seconds = Self.clock(parts[0]), seconds > 0 else { return nil }
        self.init(seconds: seconds, metres: distance.metres, per: distance.name)
    }

    /// Seconds a kilometre.
    public var perKilometre: Double { seconds / metres * 1_000 }

    /// km/h.
    public var kmh: Double { metres / seconds * 3.6 }

    /// `4:00/km`, as written (the seconds rounded to whole ones).
    public var text: String { TimeText.hms(Number.whole(seconds.rounded())) + "/" + per }

    /// `4:05`, `1:02:03`: minutes and seconds (hours first when three), each part digits
    /// only and the seconds and minutes after the first under 60.
    static func clock<Text: StringProtocol>(_ text: Text) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCIIDigit) }) else {
            return nil
        }
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count, numbers.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        return Double(numbers.reduce(0) { $0 * 60 + $1 })
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
