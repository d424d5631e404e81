#if canImport(Glibc)
import Glibc
#endif

/// A run of text in one style: its SGR parameters (`"1;31"`), or none.
public struct Span: Equatable, Sendable {
    public var text: String {
        didSet { knownColumns = nil }
    }
    public var sgr: String?
    /// The columns, where whoever made the span knew them (the big digits' pieces and
    /// blanks): a redraw's diff then need not walk the bytes of every span before a change.
    private var knownColumns: Int?

    public init(_ text: String, _ sgr: String? = nil) {
        self.text = text
        self.sgr = sgr
    }

    /// A span of `columns` narrow columns, as its maker measured them.
    init(_ text: String, _ sgr: String?, columns: Int) {
        self.text = text
        self.sgr = sgr
        knownColumns = columns
    }

    /// Columns the text takes when every character is surely one column wide (Latin,
    /// and the punctuation, box and block characters the display draws with); nil when
    /// some character may be wide or combining.
    var narrowColumns: Int? {
        if let knownColumns { return knownColumns }
        // Read in place: copying the string to call `withUTF8` retained and released it,
        // and this runs for every span before a row's first change on every redraw.
        return text.utf8.withContiguousStorageIfAvailable(Span.narrowColumns) ?? {
            var text = self.text
            return text.withUTF8(Span.narrowColumns)
        }()
    }

    private static func narrowColumns(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard var byte = bytes.baseAddress else { return 0 }
        let end = byte + bytes.count
        var columns = 0
        while byte < end {
            let lead = byte.pointee
            if lead < 0x80 {
                byte += 1
            } else if lead >= 0xC0 && lead < 0xCC {  // U+0080 to U+02FF
                byte += 2
            } else if lead == 0xE2 && end - byte >= 3 {
                // U+2010 to U+259F: E2 80 90 to E2 96 9F.
                let scalar = 0x2000 | (Int(byte[1] & 0x3F) << 6) | Int(byte[2] & 0x3F)
                guard scalar >= 0x2010 && scalar <= 0x259F else { return nil }
                byte += 3
            } else {
                return nil
            }
            columns += 1
        }
        return columns
    }

    /// Equal when the terminal would be sent the same bytes. String's own `==` compares
    /// by canonical equivalence, which for the block elements of every digit row took
    /// the slow, normalising path on each redraw.
    public static func == (left: Span, right: Span) -> Bool {
        // The same string value (shared storage, or the same small string) is the same
        // bytes: most spans of a tick are the last frame's or the font's own strings.
        if unsafeBitCast(left.text, to: (UInt64, UInt64).self) == unsafeBitCast(right.text, to: (UInt64, UInt64).self) {
            return left.sgr == right.sgr
        }
        guard left.sgr == right.sgr, left.text.utf8.count == right.text.utf8.count else { return false }
        if let same = left.text.utf8.withContiguousStorageIfAvailable({ leftBytes in
            right.text.utf8.withContiguousStorageIfAvailable {
                leftBytes.isEmpty || memcmp(leftBytes.baseAddress!, $0.baseAddress!, leftBytes.count) == 0
            }
        }), let same {
            return same
        }
        return left.text.utf8.elementsEqual(right.text.utf8)
    }
}

/// One screen line as styled spans. Layout measures the text alone, so dropping colour
/// (`NO_COLOR`) never moves anything.
public struct Line: Equatable, Sendable {
    public var spans: [Span]

    public init(_ spans: [Span] = []) {
        self.spans = spans.contains { $0.text.isEmpty } ? spans.filter { !$0.text.isEmpty } : spans
    }

    public init(_ text: String, _ sgr: String? = nil) {
        self.init([Span(text, sgr)])
    }

    /// Columns it takes: one per Unicode scalar. The display's own glyphs are all narrow
    /// single scalars, and counting scalars skips grapheme breaking, which was a quarter
    /// of the display's instructions per redraw.
    public var width: Int { spans.reduce(0) { $0 + $1.text.unicodeScalars.count } }

    /// The text without styling, as a terminal capture shows it.
    public var text: String { spans.map(\.text).joined() }

    public func rendered(color: Bool) -> String {
        var bytes: [UInt8] = []
        render(into: &bytes, color: color)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the line as the terminal gets it, each styled span between its SGR and a
    /// reset (bytes, not strings: this runs for every changed row of every redraw);
    /// from span `first` on, when the start of the row is already on screen, and up to
    /// span `end`, when the rest is too.
    public func render(into bytes: inout [UInt8], color: Bool, from first: Int = 0, to end: Int? = nil) {
        let end = min(end ?? spans.count, spans.count)
        spans.withUnsafeBufferPointer { spans in
            for index in min(first, end)..<end {
                guard color, let sgr = spans[index].sgr else {
                    Line.append(spans[index].text, to: &bytes)
                    continue
                }
                bytes.append(0x1B)
                bytes.append(UInt8(ascii: "["))
                Line.append(sgr, to: &bytes)
                bytes.append(UInt8(ascii: "m"))
                Line.append(spans[index].text, to: &bytes)
                bytes.append(0x1B)
                bytes.append(UInt8(ascii: "["))
                bytes.append(UInt8(ascii: "0"))
                bytes.append(UInt8(ascii: "m"))
            }
        }
    }

    /// A string's bytes copied at once, where it has them in one piece (ours always do).
    private static func append(_ text: String, to bytes: inout [UInt8]) {
        if text.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
            bytes.append(contentsOf: text.utf8)
        }
    }

    /// Where this line differs from `old`, the line on screen: the first span that differs
    /// and the column it starts at, so a redraw can rewrite only the rest of the row; nil
    /// when nothing differs. The column is trusted only when every character before it is
    /// surely one column wide; otherwise the whole row is redrawn. `end` is the span after
    /// the last that differs when the spans after it are the old ones, in the same place
    /// (the changed spans take as many columns as before): then only the spans from
    /// `span` to `end` need writing, and nothing erasing (a tick of the big digits changes
    /// one glyph in the middle of each row). Nil: write to the end of the row and erase.
    public func change(from old: Line) -> (span: Int, column: Int, end: Int?)? {
        // On the arrays' storage: iterating copies of spans retained and released both
        // strings of each, a third of a redraw's instructions.
        spans.withUnsafeBufferPointer { new in
            old.spans.withUnsafeBufferPointer { old in
                var first = 0
                while first < new.count, first < old.count, new[first] == old[first] { first += 1 }
                guard first < max(new.count, old.count) else { return nil }
                guard let column = Line.columns(new, 0..<first) else { return (0, 0, nil) }
                return (first, column, Line.unchangedTail(new, old, after: first))
            }
        }
    }

    /// Columns of `spans[range]`, when every character is surely one column wide.
    private static func columns(_ spans: UnsafeBufferPointer<Span>, _ range: Range<Int>) -> Int? {
        var columns = 0
        for index in range {
            guard let width = spans[index].narrowColumns else { return nil }
            columns += width
        }
        return columns
    }

    /// Where the spans the same as the old line's last ones begin, when they are in the
    /// same columns; nil otherwise.
    private static func unchangedTail(_ new: UnsafeBufferPointer<Span>, _ old: UnsafeBufferPointer<Span>,
                                      after first: Int) -> Int? {
        var same = 0
        while new.count - same > first, old.count - same > first,
              new[new.count - 1 - same] == old[old.count - 1 - same] {
            same += 1
        }
        guard same > 0 else { return nil }
        let end = new.count - same
        guard let newColumns = columns(new, first..<end),
              let oldColumns = columns(old, first..<(old.count - same)) else { return nil }
        return newColumns == oldColumns ? end : nil
    }

    public static func + (left: Line, right: Line) -> Line {
        Line(left.spans + right.spans)
    }

    /// Cut to `width` columns, the last one an ellipsis when something was cut.
    public func truncated(to width: Int, ellipsis: String = "…") -> Line {
        guard self.width > width else { return self }
        guard width > 0 else { return Line() }
        var left = width - 1
        var kept: [Span] = []
        for span in spans where left > 0 {
            let part = String(String.UnicodeScalarView(span.text.unicodeScalars.prefix(left)))
            kept.append(Span(part, span.sgr))
            left -= part.unicodeScalars.count
        }
        kept.append(Span(ellipsis, spans.last?.sgr))
        return Line(kept)
    }

    /// Centred in `width` columns (cut first if it does not fit).
    public func centered(in width: Int) -> Line {
        let line = truncated(to: width)
        let pad = (width - line.width) / 2
        return pad > 0 ? Line(String(repeating: " ", count: pad)) + line : line
    }

    /// `left` at the start and `right` at the end of `width` columns; the right part
    /// goes when both do not fit.
    public static func spread(_ left: Line, _ right: Line, width: Int) -> Line {
        guard left.width + right.width + 1 <= width else { return left.truncated(to: width) }
        return left + Line(String(repeating: " ", count: width - left.width - right.width)) + right
    }
}
