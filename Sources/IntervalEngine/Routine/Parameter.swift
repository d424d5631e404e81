import WorkoutValues

/// A routine's parameter: declared with `params { rounds = 8, work = "20s" }`, changed
/// from the command line with `--set rounds=10`. Its type comes from the default (or
/// the full form's `type`), so `--set` text is checked the way the routine will use it
/// and a typo fails on the command line, not in the middle of a workout.
public struct Parameter: Equatable, Sendable {
    public enum Kind: String, CaseIterable, Sendable {
        case integer, number, duration, string, boolean

        /// Finishes "must be …" in an error message.
        public var expected: String {
            switch self {
            case .integer: "a whole number"
            case .number: "a number"
            case .duration: "a duration such as 30, 30s, 1:30 or 2m"
            case .string: "text"
            case .boolean: "true or false (also yes/no, on/off, 1/0)"
            }
        }
    }

    public let name: String
    public let kind: Kind
    public let defaultValue: ParameterValue
    /// The default, or what `--set` gave.
    public var value: ParameterValue
    /// The full form's `help`, shown by `workout plan` and `workout list`.
    public let help: String?
    /// Where `value` came from.
    public var origin: Origin = .standard

    public enum Origin: Equatable, Sendable {
        /// The default.
        case standard
        /// `--set NAME=VALUE`.
        case set
        /// The parameter's `from_history`, with the reason it gave (`8 sessions completed`).
        case history(String?)
    }

    public init(name: String, kind: Kind, defaultValue: ParameterValue, value: ParameterValue, help: String?,
                origin: Origin = .standard) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.value = value
        self.help = help
        self.origin = origin
    }

    public var isSet: Bool { value != defaultValue }

    /// `week=3 (from history: 8 sessions completed)`.
    public var originText: String {
        guard case .history(let why) = origin else { return "\(name)=\(value.text)" }
        return "\(name)=\(value.text) (from history" + (why.map { ": \($0)" } ?? "") + ")"
    }

    /// Reads `--set` text as this parameter's type.
    public func parse(_ text: String) -> ParameterValue? {
        let trimmed = text.trimmingWhitespace()
        switch kind {
        case .integer:
            return PlainNumber.whole(trimmed, signed: true).map(ParameterValue.integer)
        case .number:
            return PlainNumber.decimal(trimmed, signed: true).map(ParameterValue.number)
        case .duration:
            guard let seconds = try? Duration.parse(trimmed) else { return nil }
            return .duration(seconds: seconds, text: trimmed)
        case .string:
            return .string(text)
        case .boolean:
            switch trimmed.lowercased() {
            case "true", "yes", "on", "1": return .boolean(true)
            case "false", "no", "off", "0": return .boolean(false)
            default: return nil
            }
        }
    }
}

public enum ParameterValue: Equatable, Sendable {
    case integer(Int)
    case number(Double)
    /// Seconds, and the text they were written as (`"20s"`), for showing.
    case duration(seconds: Double, text: String)
    case string(String)
    case boolean(Bool)

    /// As `plan` and `list` show it: `8`, `2.5`, `20s`, `Burpees`, `true`; text from the
    /// routine or the command line with its control characters escaped (`VisibleText`).
    public var text: String {
        switch self {
        case .integer(let value): String(value)
        case .number(let value): Number.format(value)
        case .duration(_, let text): text
        case .string(let value): VisibleText.escape(value)
        case .boolean(let value): value ? "true" : "false"
        }
    }

    public static func == (lhs: ParameterValue, rhs: ParameterValue) -> Bool {
        switch (lhs, rhs) {
        case let (.integer(a), .integer(b)): a == b
        case let (.number(a), .number(b)): a == b
        // `--set work=20` equals a default of "20s": what counts is the length.
        case let (.duration(a, _), .duration(b, _)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.boolean(a), .boolean(b)): a == b
        default: false
        }
    }
}

/// One `--set NAME=VALUE` from the command line, kept as text until the routine
/// declares what type NAME has.
public struct ParameterSetting: Equatable, Sendable {
    public let name: String
    public let text: String

    public init(name: String, text: String) {
        self.name = name
        self.text = text
    }

    /// Splits `rounds=4` at the first `=`. The message finishes "--set …: ".
    public init(argument: String) throws(RoutineError) {
        guard let equals = argument.firstIndex(of: "=") else {
            throw RoutineError("--set \(argument): expected NAME=VALUE, e.g. --set rounds=4", isUsage: true)
        }
        let name = String(argument[..<equals]).trimmingWhitespace()
        guard Parameter.isValidName(name) else {
            throw RoutineError("--set \(argument): \(name.isEmpty ? "the name is missing" : "'\(name)' is not a parameter name")"
                               + " (expected NAME=VALUE, e.g. --set rounds=4)", isUsage: true)
        }
        self.init(name: name, text: String(argument[argument.index(after: equals)...]))
    }

    /// As the user typed it, for messages.
    public var argument: String { "\(name)=\(text)" }
}

extension Parameter {
    /// A Lua identifier, so the routine can write `p.name` and the shell `--set name=…`.
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.first, first == "_" || (first.isASCII && first.isLetter) else { return false }
        return name.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    }
}

extension Parameter {
    /// " (did you mean rounds?)" when one of `names` is within two edits of `name`, else "":
    /// for a `--set` name, and for a routine's name (`workout run tabbata`).
    public static func suggestion(for name: String, among names: [String]) -> String {
        let closest = names.map { ($0, distance($0, name)) }.min { $0.1 < $1.1 }
        return closest.flatMap { $0.1 <= 2 ? " (did you mean \($0.0)?)" : nil } ?? ""
    }

    /// Edits (insert, delete, replace) from one name to another, for "did you mean".
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let saved = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = saved
            }
        }
        return row[b.count]
    }
}
