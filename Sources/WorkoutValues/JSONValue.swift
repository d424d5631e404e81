/// A JSON value with ordered object keys, so events print their fields in the order
/// the spec lists them, one line each.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.integer(a), .integer(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// Optional values become `null`.
    public static func from(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
    public static func from(_ value: Int?) -> JSONValue { value.map { .integer($0) } ?? .null }

    /// Compact JSON text on one line.
    public var text: String {
        var output = ""
        write(to: &output)
        return output
    }

    public func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .integer(let value): output += String(value)
        // JSON has no infinity or NaN: such a number (never made on purpose) is null.
        case .number(let value): output += value.isFinite ? Number.format(value) : "null"
        case .string(let value): JSONValue.quote(value, into: &output)
        case .array(let items):
            output += "["
            for (position, item) in items.enumerated() {
                if position > 0 { output += "," }
                item.write(to: &output)
            }
            output += "]"
        case .object(let fields):
            output += "{"
            for (position, (key, value)) in fields.enumerated() {
                if position > 0 { output += "," }
                JSONValue.quote(key, into: &output)
                output += ":"
                value.write(to: &output)
            }
            output += "}"
        }
    }

    package static func quote(_ text: String, into output: inout String) {
        output += "\""
        // Most text needs no escape: copied whole, not a character at a time.
        // (0xC2 leads U+0080 to U+00BF, C1 among them: those take the careful path.)
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xC2 }) else {
            output += text
            output += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where needsEscape(scalar):
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }

    /// Quotes, backslashes and control characters: C0, DEL and C1 (which some terminals
    /// obey in UTF-8 too, and JSON is printed on terminals).
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar == "\"" || scalar == "\\" || (0x7F...0x9F).contains(scalar.value)
    }

    /// The value of a field of an object, for tests and readers.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let fields) = self else { return nil }
        return fields.first { $0.0 == key }?.1
    }

    /// A number's value, integer or finite; nil for anything else.
    public var numericValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value) where value.isFinite: value
        default: nil
        }
    }

    /// A whole number's value (`3`, `3.0`) within ±10¹⁵; nil for anything else.
    public var wholeValue: Int? {
        guard let value = numericValue, value.rounded() == value, abs(value) < 1e15 else { return nil }
        return Int(value)
    }
}
