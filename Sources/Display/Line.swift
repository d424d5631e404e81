/// A run of text in one style: its SGR parameters (`"1;31"`), or none.
public struct Span: Equatable, Sendable {
    public var text: String
    public var sgr: String?

    public init(_ text: String, _ sgr: String? = nil) {
        self.text = text
        self.sgr = sgr
    }
}

/// One screen line as styled spans. Layout measures the text alone, so dropping colour
/// (`NO_COLOR`) never moves anything.
public struct Line: Equatable, Sendable {
    public var spans: [Span]

    public init(_ spans: [Span] = []) {
        self.spans = spans.filter { !$0.text.isEmpty }
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
        spans.map { span in
            guard color, let sgr = span.sgr else { return span.text }
            return "\u{1B}[\(sgr)m\(span.text)\u{1B}[0m"
        }.joined()
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
