import WorkoutValues

/// Durations as a routine writes them: seconds as a number, or a string such as `"90"`,
/// `"90s"`, `"1:30"`, `"1:02:03"`, `"2m"`, `"1m30s"`, `"1h"`, `"1h5m"`.
public enum Duration {
    /// The longest segment a routine may hold: a day.
    public static let maximum: Double = 24 * 3600
    /// The shortest segment the engine runs: a millisecond. Its timers count nanoseconds,
    /// but a shorter segment is over before any screen, sound or clock a person follows
    /// could show it, and written in a workout file it would round away to nothing.
    public static let minimum: Double = 0.001

    public enum Problem: Error, Equatable {
        case notPositive
        case tooShort
        case notFinite
        case tooLong
        case malformed
    }

    /// Seconds from a number, checked against the limits.
    public static func seconds(_ value: Double) throws(Problem) -> Double {
        guard value.isFinite else { throw .notFinite }
        guard value > 0 else { throw .notPositive }
        guard value >= minimum else { throw .tooShort }
        guard value <= maximum else { throw .tooLong }
        return value
    }

    /// Seconds from the text forms.
    public static func parse(_ text: String) throws(Problem) -> Double {
        let trimmed = text.trimmingWhitespace().lowercased()
        guard !trimmed.isEmpty else { throw .malformed }
        let value: Double
        if trimmed.contains(":") {
            value = try clock(trimmed)
        } else if let plain = decimal(trimmed) {
            value = plain
        } else {
            value = try units(trimmed)
        }
        return try seconds(value)
    }

    /// `m:ss` or `h:mm:ss`; every part after the first is below 60.
    private static func clock(_ text: String) throws(Problem) -> Double {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 || parts.count == 3 else { throw .malformed }
        var total = 0.0
        for (position, part) in parts.enumerated() {
            let isLast = position == parts.count - 1
            guard let value = isLast ? decimal(part) : wholeNumber(part) else { throw .malformed }
            if position > 0 && (value >= 60 || part.count < 2) { throw .malformed }
            total = total * 60 + value
        }
        return total
    }

    /// `1h5m30s`, `2m`, `90s`, `1.5m`: each unit at most once, largest first; a unit
    /// after a larger one is below 60 (`1h99m` is a slip, not 2:39:00).
    private static func units(_ text: String) throws(Problem) -> Double {
        let scale: [Character: Double] = ["h": 3600, "m": 60, "s": 1]
        var total = 0.0
        var number = ""
        var lastScale = Double.infinity
        for character in text {
            if let unit = scale[character] {
                guard let value = decimal(number), unit < lastScale,
                      lastScale.isInfinite || value < 60 else { throw .malformed }
                total += value * unit
                lastScale = unit
                number = ""
            } else {
                number.append(character)
            }
        }
        guard number.isEmpty, lastScale.isFinite else { throw .malformed }
        return total
    }

    /// Digits only; no point.
    private static func wholeNumber(_ text: String) -> Double? {
        guard !text.contains(".") else { return nil }
        return PlainNumber.decimal(text)
    }

    /// Digits with at most one decimal point (`PlainNumber`).
    private static func decimal(_ text: String) -> Double? { PlainNumber.decimal(text) }
}

extension Duration.Problem {
    /// The end of an error message after `"<what> "`.
    public var explanation: String {
        switch self {
        case .notPositive: "must be more than 0 seconds"
        case .tooShort: "must be at least \(Number.format(Duration.minimum)) seconds (a millisecond)"
        case .notFinite: "must be a finite number of seconds"
        case .tooLong: "must be at most 24 hours"
        case .malformed: "is not a duration (write 90, \"90s\", \"1:30\", \"2m\" or \"1h5m\")"
        }
    }
}

extension String {
    public func trimmingWhitespace() -> String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }
}
