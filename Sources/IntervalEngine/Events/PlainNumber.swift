/// The one reader of every number a person types: the athlete file, `--set`, `--speed`,
/// `--volume`, the `--max-…` limits, durations, and the numbers of an imported workout file
/// (ZWO, intervals.icu). A plain decimal — ASCII digits with at most one point, a `-` first
/// where a negative number means something — and nothing else: no `0x10` (hexadecimal that
/// `Double("0x10")` reads as 16), no exponent (`1e-320`, a denormal; `1e3`), no `+`, `inf`,
/// `nan`, spaces or underscores. A value too small to be held as a normal double (a
/// `0.000…01` of 320 zeros) or too large to be finite is refused too. The same refusals
/// everywhere, so that what one place takes another does not reject, and a slip of the
/// keyboard is an error rather than a strange workout.
public enum PlainNumber {
    /// The phrase every message uses for what was expected.
    public static let expected = "a plain decimal number such as 60 or 0.75"

    /// A plain decimal; `signed`: a leading `-` is allowed. Nil for anything else.
    public static func decimal<Text: StringProtocol>(_ text: Text, signed: Bool = false) -> Double? {
        var digits = 0
        var points = 0
        var first = true
        for byte in text.utf8 {
            defer { first = false }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "."): points += 1
            case UInt8(ascii: "-") where signed && first: continue
            default: return nil
            }
        }
        guard digits > 0, points <= 1, let value = Double(String(text)), isPlain(value) else { return nil }
        return value
    }

    /// A whole number: digits only (a `-` first when `signed`), within what an `Int` holds.
    public static func whole<Text: StringProtocol>(_ text: Text, signed: Bool = false) -> Int? {
        let digits = signed && text.hasPrefix("-") ? text.dropFirst() : text[...]
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int(String(text))
    }

    /// A value a plain decimal may stand for: finite, and zero or normal (no denormal).
    /// Numbers that come already read (JSON, Lua) are held to it as well.
    public static func isPlain(_ value: Double) -> Bool {
        value == 0 || value.isNormal
    }
}
