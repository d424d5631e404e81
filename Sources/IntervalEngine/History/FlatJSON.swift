/// A reader for the one shape of JSON the history holds: a flat object of strings,
/// numbers and booleans, the way `HistoryEntry.json` writes it. Foundation's
/// `JSONSerialization` took about 18 µs a line, 9 s of CPU for a history of 500,000
/// sessions; this takes about 1 µs. It reads strictly (JSON's grammar for numbers, no
/// control characters, valid UTF-8) and gives up — nil — on anything else: an escape in
/// a string, a nested value, anything it does not expect. The caller then falls back
/// to `JSONSerialization`, so every valid line is still read, and every invalid one is
/// still damaged.
enum FlatJSON {
    enum Value: Equatable {
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
    }

    /// The value of `key` in fields `object` read: the last one given.
    static func field(_ key: String, in fields: [(key: String, value: Value)]) -> Value? {
        fields.last { $0.key == key }?.value
    }

    /// The object's fields in order (a key given twice counts as the later one, as with
    /// `JSONSerialization`: see `field`), or nil.
    static func object(_ bytes: UnsafeBufferPointer<UInt8>) -> [(key: String, value: Value)]? {
        var reader = Reader(bytes: bytes)
        return reader.object()
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var at = 0

        mutating func object() -> [(key: String, value: Value)]? {
            skipSpaces()
            guard take(UInt8(ascii: "{")) else { return nil }
            var fields: [(key: String, value: Value)] = []
            fields.reserveCapacity(12)
            skipSpaces()
            if take(UInt8(ascii: "}")) { return end() ? fields : nil }
            while true {
                skipSpaces()
                guard let key = string() else { return nil }
                skipSpaces()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipSpaces()
                guard let value = value() else { return nil }
                fields.append((key, value))
                skipSpaces()
                if take(UInt8(ascii: ",")) { continue }
                guard take(UInt8(ascii: "}")) else { return nil }
                return end() ? fields : nil
            }
        }

        private mutating func end() -> Bool {
            skipSpaces()
            return at == bytes.count
        }

        private mutating func value() -> Value? {
            guard at < bytes.count else { return nil }
            switch bytes[at] {
            case UInt8(ascii: "\""): return string().map(Value.string)
            case UInt8(ascii: "t"): return word("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return word("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return word("null") ? .null : nil
            default: return number().map(Value.number)
            }
        }

        /// A string without escapes or control characters, valid UTF-8.
        private mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = at
            var ascii = true
            while at < bytes.count {
                let byte = bytes[at]
                if byte == UInt8(ascii: "\"") {
                    let part = UnsafeBufferPointer(rebasing: bytes[start..<at])
                    at += 1
                    // ASCII (nearly always) needs no validation, and the generic one is slow.
                    return ascii ? String(decoding: part, as: UTF8.self) : String(validating: part, as: UTF8.self)
                }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                if byte >= 0x80 { ascii = false }
                at += 1
            }
            return nil
        }

        /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, as JSON has it.
        private mutating func number() -> Double? {
            let start = at
            _ = take(UInt8(ascii: "-"))
            if take(UInt8(ascii: "0")) {
                // no more digits may follow a leading zero
            } else {
                guard digits() > 0 else { return nil }
            }
            if take(UInt8(ascii: ".")) {
                guard digits() > 0 else { return nil }
            }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
                guard digits() > 0 else { return nil }
            }
            if at < bytes.count, isDigit(bytes[at]) { return nil }
            // Out of a Double's range: Foundation refuses it; let it say so.
            guard let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)),
                  value.isFinite else { return nil }
            return value
        }

        private mutating func digits() -> Int {
            let start = at
            while at < bytes.count, isDigit(bytes[at]) { at += 1 }
            return at - start
        }

        private func isDigit(_ byte: UInt8) -> Bool {
            byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }

        private mutating func word(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard at + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[at + offset] != text.utf8Start[offset] { return false }
            at += count
            return true
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard at < bytes.count, bytes[at] == byte else { return false }
            at += 1
            return true
        }

        private mutating func skipSpaces() {
            while at < bytes.count {
                let byte = bytes[at]
                guard byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else { return }
                at += 1
            }
        }
    }
}
