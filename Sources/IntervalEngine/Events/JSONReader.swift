import WorkoutValues

/// Reads one JSON text into a `JSONValue`: the history's lines, and the bodies the web
/// remote is sent. Foundation's `JSONSerialization` takes about 20 µs a line on Linux,
/// which made `workout history stats` over 100,000 sessions slower than `jq -s` summing
/// the same file; this reader takes a fraction of that (BENCHMARKS.md). It accepts exactly RFC 8259 JSON
/// (one value, surrounded by optional white space) and refuses anything else, including
/// invalid UTF-8 and lone surrogates. Numbers come back as `.number` (Double): 1e999
/// reads as infinity, which the history then refuses as out of range.
public struct JSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    /// Nesting deeper than this is refused rather than followed (stack safety).
    static let deepest = 64

    public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    // The streaming side, for readers that know the shape they expect (a history line):
    // no `JSONValue` is built, which made reading a history line five times faster.

    /// Visits each field of the object at the reader (after white space), `field`
    /// reading its value; false when the text is not an object or `field` refuses.
    public mutating func fields(_ field: (String, inout JSONReader) -> Bool) -> Bool {
        skipSpace()
        guard take(UInt8(ascii: "{")) else { return false }
        skipSpace()
        if take(UInt8(ascii: "}")) { return true }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\""), let key = string() else { return false }
            skipSpace()
            guard take(UInt8(ascii: ":")) else { return false }
            skipSpace()
            guard field(key, &self) else { return false }
            skipSpace()
            if take(UInt8(ascii: "}")) { return true }
            guard take(UInt8(ascii: ",")) else { return false }
        }
    }

    /// Visits each item of the array at the reader.
    public mutating func items(_ item: (inout JSONReader) -> Bool) -> Bool {
        skipSpace()
        guard take(UInt8(ascii: "[")) else { return false }
        skipSpace()
        if take(UInt8(ascii: "]")) { return true }
        while true {
            skipSpace()
            guard item(&self) else { return false }
            skipSpace()
            if take(UInt8(ascii: "]")) { return true }
            guard take(UInt8(ascii: ",")) else { return false }
        }
    }

    /// Whether only white space is left.
    public mutating func atEnd() -> Bool {
        skipSpace()
        return position == bytes.count
    }

    public mutating func readString() -> String? {
        current == UInt8(ascii: "\"") ? string() : nil
    }

    public mutating func readNumber() -> Double? {
        guard case .number(let value)? = number() else { return nil }
        return value
    }

    /// Whether the value is `null` (taken when it is).
    public mutating func readNull() -> Bool {
        take("null")
    }

    public mutating func readBool() -> Bool? {
        if take("true") { return true }
        if take("false") { return false }
        return nil
    }

    /// Reads any value and forgets it (a field this reader does not know).
    public mutating func skipValue() -> Bool {
        value(depth: 0) != nil
    }

    public static func value(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        var reader = JSONReader(bytes)
        reader.skipSpace()
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipSpace()
        return reader.position == bytes.count ? value : nil
    }

    public static func value(_ text: String) -> JSONValue? {
        var text = text
        return text.withUTF8 { value($0) }
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipSpace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        position += 1
        return true
    }

    private mutating func take(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] { return false }
        position += count
        return true
    }

    private mutating func value(depth: Int) -> JSONValue? {
        guard depth < Self.deepest, let byte = current else { return nil }
        switch byte {
        case UInt8(ascii: "{"): return object(depth: depth)
        case UInt8(ascii: "["): return array(depth: depth)
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return take("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return take("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return take("null") ? .null : nil
        default: return number()
        }
    }

    private mutating func object(depth: Int) -> JSONValue? {
        var members: [(String, JSONValue)] = []
        let whole = fields { key, reader in
            guard let value = reader.value(depth: depth + 1) else { return false }
            members.append((key, value))
            return true
        }
        return whole ? .object(members) : nil
    }

    private mutating func array(depth: Int) -> JSONValue? {
        var elements: [JSONValue] = []
        let whole = items { reader in
            guard let element = reader.value(depth: depth + 1) else { return false }
            elements.append(element)
            return true
        }
        return whole ? .array(elements) : nil
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, converted by the standard
    /// library (correctly rounded, whatever the C locale says).
    private mutating func number() -> JSONValue? {
        let start = position
        func digits() -> Int {
            let first = position
            while let byte = current, byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { position += 1 }
            return position - first
        }
        _ = take(UInt8(ascii: "-"))
        if take(UInt8(ascii: "0")) {
            // No leading zeros: `01` is not JSON.
        } else if digits() == 0 {
            return nil
        }
        if take(UInt8(ascii: ".")) && digits() == 0 { return nil }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            if digits() == 0 { return nil }
        }
        let token = UnsafeBufferPointer(rebasing: bytes[start..<position])
        // Whole numbers of up to 15 digits are exact as doubles: add them up directly.
        if token.count <= 15, let first = token.first, first != UInt8(ascii: "-"),
           token.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return .number(Double(token.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }))
        }
        return Double(String(decoding: token, as: UTF8.self)).map(JSONValue.number)
    }

    /// A string at `"`; nil when it is not valid JSON text.
    private mutating func string() -> String? {
        position += 1
        let start = position
        // The common case: no escapes, straight from the bytes.
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { return nil }
            position += 1
        }
        guard let stop = current else { return nil }
        guard stop == UInt8(ascii: "\\") else {
            position += 1
            let text = UnsafeBufferPointer(rebasing: bytes[start..<position - 1])
            // ASCII needs no validation (and the general path costs a generic lookup a call).
            if text.allSatisfy({ $0 < 0x80 }) { return String(decoding: text, as: UTF8.self) }
            return String(validating: text, as: UTF8.self)
        }
        var utf8 = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        guard escaped(into: &utf8) else { return nil }
        position += 1
        return String(validating: utf8, as: UTF8.self)
    }

    /// The rest of a string holding escapes, up to (not past) its closing quote.
    private mutating func escaped(into utf8: inout [UInt8]) -> Bool {
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                return true
            case UInt8(ascii: "\\"):
                position += 1
                guard let code = current else { return false }
                position += 1
                switch code {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(code)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = unicodeEscape() else { return false }
                    utf8.append(contentsOf: String(Character(scalar)).utf8)
                default: return false
                }
            default:
                guard byte >= 0x20 else { return false }
                utf8.append(byte)
                position += 1
            }
        }
        return false
    }

    /// After `\u`: four hex digits, and for a high surrogate the `\uDC00`… that must follow.
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let high = hex4() else { return nil }
        if (0xD800...0xDBFF).contains(high) {
            guard take("\\u"), let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        }
        return Unicode.Scalar(high)
    }

    private mutating func hex4() -> UInt32? {
        guard position + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }
}
