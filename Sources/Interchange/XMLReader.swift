import IntervalEngine
import WorkoutValues

/// Reads XML one element at a time, knowing the line of each — enough XML for Zwift's
/// workout files, and strict about the rest: every error names its line.
///
/// Why not Foundation's `XMLParser` (or SWXMLHash and XMLCoder, which wrap it): it links
/// libxml2 and ICU into every command, not just `import` — more start-up time, memory and
/// shared libraries for the statically linked release (docs/design.md has the figures).
///
/// What it reads: elements, attributes in `"` or `'`, text, CDATA, comments, processing
/// instructions (the `<?xml …?>` declaration) and the five named entities and numeric
/// character references. What it refuses: a DOCTYPE (entities a file defines itself are
/// how XML bombs work, and no workout needs them), mismatched or unclosed elements, text
/// outside the root, and anything else that is not well-formed.
struct XMLReader {
    enum Event: Equatable {
        case start(name: String, attributes: [String: String], line: Int)
        case end(name: String, line: Int)
        case text(String, line: Int)
    }

    private let bytes: [UInt8]
    private let file: String
    private var position = 0
    private(set) var line = 1
    /// Open elements with the line each started on.
    private var open: [(name: String, line: Int)] = []
    private var sawRoot = false
    /// A self-closing element's end, given on the next call.
    private var pendingEnd: Event?

    /// Deeper than this is not a workout file: refuse rather than keep a huge stack.
    static let maximumDepth = 64

    init(_ bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
        // A UTF-8 byte-order mark.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    private func fail(_ message: String, line: Int? = nil) -> WorkoutFileError {
        WorkoutFileError(file: file, line: line ?? self.line, message)
    }

    /// The next element start, end or text; nil at the end of a well-formed document.
    mutating func next() throws(WorkoutFileError) -> Event? {
        if let pending = pendingEnd {
            pendingEnd = nil
            return pending
        }
        while position < bytes.count {
            if bytes[position] != UInt8(ascii: "<") {
                let start = line
                let text = try readText()
                if open.isEmpty {
                    guard text.allSatisfy(\.isWhitespace) else {
                        throw fail(sawRoot ? "expected nothing after the root element's end, got text"
                                           : "expected an XML element such as <workout_file>, got text", line: start)
                    }
                    continue
                }
                return .text(text, line: start)
            }
            if starts(with: "<!--") {
                try skip(past: "-->", what: "a comment")
            } else if starts(with: "<![CDATA[") {
                let start = line
                guard !open.isEmpty else { throw fail("expected an element, got CDATA outside the root") }
                position += 9
                let text = try take(upTo: "]]>", what: "a CDATA section")
                return .text(text, line: start)
            } else if starts(with: "<!") {
                throw fail("a DOCTYPE or other declaration is not expected in a workout file")
            } else if starts(with: "<?") {
                try skip(past: "?>", what: "a processing instruction")
            } else if starts(with: "</") {
                return try readEnd()
            } else {
                return try readStart()
            }
        }
        if let innermost = open.last {
            throw fail("the file ends inside <\(innermost.name)> (opened on line \(innermost.line)); expected </\(innermost.name)>")
        }
        guard sawRoot else { throw fail("expected an XML element such as <workout_file>, got an empty file") }
        return nil
    }

    // MARK: - Markup

    private mutating func readStart() throws(WorkoutFileError) -> Event {
        let start = line
        position += 1
        let name = try readName(what: "an element name after <")
        guard open.isEmpty ? !sawRoot : true else {
            throw fail("expected nothing after the root element's end, got <\(name)>")
        }
        var attributes: [String: String] = [:]
        while true {
            let spaced = skipWhitespace()
            guard position < bytes.count else { throw fail("the file ends inside the tag <\(name)>") }
            if starts(with: "/>") {
                position += 2
                sawRoot = true
                pendingEnd = .end(name: name, line: line)
                try enter(name, line: start)
                open.removeLast()
                return .start(name: name, attributes: attributes, line: start)
            }
            if bytes[position] == UInt8(ascii: ">") {
                position += 1
                sawRoot = true
                try enter(name, line: start)
                return .start(name: name, attributes: attributes, line: start)
            }
            guard spaced else { throw fail("expected a space, > or /> in <\(name)>, got '\(character())'") }
            let attribute = try readName(what: "an attribute name, > or /> in <\(name)>")
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else {
                throw fail("expected = after the attribute \(attribute) in <\(name)>")
            }
            position += 1
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") else {
                throw fail("expected a quoted value for the attribute \(attribute) in <\(name)>")
            }
            let quote = bytes[position]
            position += 1
            let value = try readCharacters(until: quote, what: "the value of \(attribute)")
            position += 1
            guard attributes[attribute] == nil else {
                throw fail("the attribute \(attribute) appears twice in <\(name)>")
            }
            attributes[attribute] = value
        }
    }

    private mutating func enter(_ name: String, line: Int) throws(WorkoutFileError) {
        guard open.count < XMLReader.maximumDepth else {
            throw fail("elements nest more than \(XMLReader.maximumDepth) deep; a workout file needs a few levels")
        }
        open.append((name, line))
    }

    private mutating func readEnd() throws(WorkoutFileError) -> Event {
        let start = line
        position += 2
        let name = try readName(what: "an element name after </")
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else {
            throw fail("expected > to end </\(name)")
        }
        position += 1
        guard let innermost = open.last else {
            throw fail("</\(name)> closes an element that was never opened", line: start)
        }
        guard innermost.name == name else {
            throw fail("expected </\(innermost.name)> (opened on line \(innermost.line)), got </\(name)>", line: start)
        }
        open.removeLast()
        return .end(name: name, line: start)
    }

    private mutating func readName(what: String) throws(WorkoutFileError) -> String {
        let start = position
        while position < bytes.count, XMLReader.isNameByte(bytes[position], first: position == start) {
            position += 1
        }
        guard position > start else {
            throw fail("expected \(what), got \(position < bytes.count ? "'\(character())'" : "the end of the file")")
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// Letters, digits, `_ - . :` and anything beyond ASCII; not a digit, `-` or `.` first.
    private static func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"),
             UInt8(ascii: ":"), 0x80...0xFF:
            true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
            !first
        default:
            false
        }
    }

    // MARK: - Text

    private mutating func readText() throws(WorkoutFileError) -> String {
        try readCharacters(until: UInt8(ascii: "<"), what: "text")
    }

    /// Characters up to `end` (not taken), with entities replaced.
    private mutating func readCharacters(until end: UInt8, what: String) throws(WorkoutFileError) -> String {
        var output: [UInt8] = []
        while position < bytes.count, bytes[position] != end {
            let byte = bytes[position]
            if byte == UInt8(ascii: "<") { throw fail("expected &lt; for a < in \(what)") }
            if byte == UInt8(ascii: "&") {
                output += try readEntity()
                continue
            }
            if byte == UInt8(ascii: "\n") { line += 1 }
            output.append(byte)
            position += 1
        }
        if position >= bytes.count && end != UInt8(ascii: "<") {
            throw fail("the file ends inside \(what)")
        }
        return String(decoding: output, as: UTF8.self)
    }

    private mutating func readEntity() throws(WorkoutFileError) -> [UInt8] {
        let start = position
        position += 1
        while position < bytes.count, position - start <= 12, bytes[position] != UInt8(ascii: ";") {
            position += 1
        }
        guard position < bytes.count, bytes[position] == UInt8(ascii: ";") else {
            throw fail("expected an entity such as &amp; or &#233; after &")
        }
        let name = String(decoding: bytes[(start + 1)..<position], as: UTF8.self)
        position += 1
        switch name {
        case "lt": return Array("<".utf8)
        case "gt": return Array(">".utf8)
        case "amp": return Array("&".utf8)
        case "quot": return Array("\"".utf8)
        case "apos": return Array("'".utf8)
        default:
            let hex = name.hasPrefix("#x") || name.hasPrefix("#X")
            let digits = name.dropFirst(hex ? 2 : 1)
            guard name.hasPrefix("#"), !digits.isEmpty, digits.count <= 8,
                  let code = UInt32(digits, radix: hex ? 16 : 10), code != 0,
                  let scalar = Unicode.Scalar(code) else {
                throw fail("&\(name); is not an entity XML knows (&lt; &gt; &amp; &quot; &apos; or &#NNN;)")
            }
            return Array(String(scalar).utf8)
        }
    }

    // MARK: - Bytes

    private func starts(with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return text.withUTF8Buffer { prefix in
            (0..<count).allSatisfy { bytes[position + $0] == prefix[$0] }
        }
    }

    @discardableResult
    private mutating func skipWhitespace() -> Bool {
        let start = position
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) {
            if bytes[position] == 0x0A { line += 1 }
            position += 1
        }
        return position > start
    }

    private mutating func skip(past end: StaticString, what: String) throws(WorkoutFileError) {
        _ = try take(upTo: end, what: what)
    }

    /// The raw text up to `end`, which is consumed too.
    private mutating func take(upTo end: StaticString, what: String) throws(WorkoutFileError) -> String {
        let startLine = line
        let start = position
        while position < bytes.count {
            if starts(with: end) {
                let text = String(decoding: bytes[start..<position], as: UTF8.self)
                position += end.utf8CodeUnitCount
                return text
            }
            if bytes[position] == 0x0A { line += 1 }
            position += 1
        }
        throw fail("the file ends inside \(what) that started on line \(startLine)")
    }

    private func character() -> String {
        guard position < bytes.count else { return "" }
        let byte = bytes[position]
        return byte < 0x80 ? VisibleText.escape(String(UnicodeScalar(byte))) : "\\\(byte)"
    }
}
