/// A number a routine keeps for the session with `record(name, value)`: AMRAP rounds, a
/// best time. The last value per name goes into the session's history entry, and
/// `workout history stats` keeps each name's best, which is the highest unless the
/// routine said `{ better = "lower" }` (times).
public struct Score: Sendable, Equatable {
    public var name: String
    public var value: Double
    public var lowerIsBetter: Bool

    public init(name: String, value: Double, lowerIsBetter: Bool = false) {
        self.name = name
        self.value = value
        self.lowerIsBetter = lowerIsBetter
    }

    /// `record` takes names up to this many bytes and this many names a session, so a
    /// routine in a loop cannot grow the history line without bound.
    public static let longestName = 100
    public static let mostNames = 100
    /// Values beyond this are refused (and a history line holding one is damaged):
    /// every number stays exact in JSON and a spreadsheet.
    public static let largestValue = 1e15

    public static func isValid(_ value: Double) -> Bool {
        value.isFinite && abs(value) <= largestValue
    }

    /// `"lower"` or `"higher"`, as `record`'s option and the JSON say it.
    public var better: String { lowerIsBetter ? "lower" : "higher" }

    /// `7`, `312.5`: the value as people and JSON read it.
    public var valueText: String { Number.format(value) }

    /// Whether `value` beats `other` for this score's direction.
    public func beats(_ other: Double) -> Bool {
        lowerIsBetter ? value < other : value > other
    }
}

extension [Score] {
    /// Sets `score.name` to the new value, keeping the order names were first recorded in.
    public mutating func record(_ score: Score) {
        if let position = firstIndex(where: { $0.name == score.name }) {
            self[position] = score
        } else {
            append(score)
        }
    }
}
