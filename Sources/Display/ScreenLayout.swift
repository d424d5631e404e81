import IntervalEngine

/// A terminal's size in character cells.
public struct ScreenSize: Equatable, Sendable {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }
}

/// Lays a `DisplayState` out as the lines of a screen of a given size: a pure function,
/// so every size and state is unit-tested without a terminal. At 40×12 and up it is the
/// full display, the countdown in big digits scaled to the space there is; below that a
/// single status line.
public enum ScreenLayout {
    public static let smallest = ScreenSize(columns: 40, rows: 12)

    public static func lines(_ state: DisplayState, size: ScreenSize, glyphs: Glyphs) -> [Line] {
        layout(state, size: size, glyphs: glyphs).lines
    }

    /// Where the rows that move with the clock are: the big digits and the two bars.
    struct MovingRows: Equatable {
        var digits: Range<Int>
        var scale: Int
        var segmentBar: Int
        var workoutBar: Int

        func shifted(by offset: Int) -> MovingRows {
            MovingRows(digits: (digits.lowerBound + offset)..<(digits.upperBound + offset), scale: scale,
                       segmentBar: segmentBar + offset, workoutBar: workoutBar + offset)
        }
    }

    /// The lines, and where the moving rows are (nil for the status line and the help).
    static func layout(_ state: DisplayState, size: ScreenSize, glyphs: Glyphs) -> (lines: [Line], moving: MovingRows?) {
        guard size.columns >= smallest.columns, size.rows >= smallest.rows else {
            return ([StatusLine.line(state, width: size.columns, glyphs: glyphs)], nil)
        }
        let width = size.columns
        var content: [Line]
        var moving: MovingRows?
        if state.help {
            content = helpLines(width: width) + (state.invitation.map { [Line(), Line($0.url, "2").centered(in: width)] } ?? [])
        } else if let invitation = state.invitation {
            content = invitationLines(state, invitation, size: size, glyphs: glyphs)
        } else {
            (content, moving) = workoutLines(state, width: width, rows: size.rows - 2, glyphs: glyphs)
        }
        let top = max(0, (size.rows - 2 - content.count) / 2)
        var lines = [header(state, width: width, glyphs: glyphs)]
        lines += Array(repeating: Line(), count: top) + content
        lines += Array(repeating: Line(), count: max(0, size.rows - 1 - lines.count))
        lines.append(keyHelp(state, width: width, glyphs: glyphs))
        return (lines, moving?.shifted(by: 1 + top))
    }

    /// The routine's name, PAUSED in reverse video while paused, and the segment number.
    static func header(_ state: DisplayState, width: Int, glyphs: Glyphs) -> Line {
        let unknown = glyphs.ellipsis == "…" ? "…" : "..."
        let right = Line("\(state.index)/\(state.count.map(String.init) ?? unknown) ", "2")
        guard state.paused else { return Line.spread(Line(" " + state.routine, "2"), right, width: width) }
        let badge = Line(" PAUSED ", "1;7")
        let start = (width - badge.width) / 2
        let left = Line(" " + state.routine, "2").truncated(to: start - 1)
        var line = left + Line(String(repeating: " ", count: start - left.width)) + badge
        let gap = width - line.width - right.width
        if gap >= 1 { line = line + Line(String(repeating: " ", count: gap)) + right }
        return line
    }

    /// Title, big clock, segment bar, round and next, workout bar and the last message,
    /// fitted into `rows`: the digits grow first, then the rows part into groups.
    static func workoutLines(_ state: DisplayState, width: Int, rows: Int,
                             glyphs: Glyphs) -> (lines: [Line], moving: MovingRows) {
        let fixed = 5
        var scale = 1
        let widest = widestClock(state)
        for candidate in [3, 2] where fixed + BigDigits.height * candidate <= rows
            && widest * candidate <= width - 2 {
            scale = candidate
            break
        }
        var spare = rows - fixed - BigDigits.height * scale
        let split = spare >= 1
        if split { spare -= 1 }
        let gaps = (0..<3).map { position in position < spare }

        let title = (Line(KindStyle.label(state.kind), KindStyle.strong(state.kind)) + Line("  ")
                     + Line(state.name, "1")).centered(in: width)
        var lines = [title]
        if gaps[1] { lines.append(Line()) }
        let digitsStart = lines.count
        lines += digits(state, scale: scale, width: width, glyphs: glyphs)
        let digitsEnd = lines.count
        if gaps[0] { lines.append(Line()) }
        let segmentBarRow = lines.count
        lines.append(segmentBar(state, width: width, glyphs: glyphs))
        let round = roundText(state, glyphs: glyphs)
        let next = nextText(state, glyphs: glyphs)
        if split {
            lines.append(Line(round ?? "").centered(in: width))
            lines.append(Line(next ?? "", "2").centered(in: width))
        } else {
            lines.append(Line([round, next].compactMap { $0 }.joined(separator: "  \(glyphs.dot)  ")).centered(in: width))
        }
        if gaps[2] { lines.append(Line()) }
        let workoutBarRow = lines.count
        lines.append(workoutBar(state, width: width, glyphs: glyphs))
        lines.append(message(state.message).centered(in: width))
        return (lines, MovingRows(digits: digitsStart..<digitsEnd, scale: scale, segmentBar: segmentBarRow,
                                  workoutBar: workoutBarRow))
    }

    /// Columns of the clock at scale 1, sized for the widest text a segment shows, so
    /// the scale does not jump when the tenths appear at 3 s.
    static func widestClock(_ state: DisplayState) -> Int {
        max(BigDigits.width(state.clockText, scale: 1), BigDigits.width("0:00.0", scale: 1))
    }

    /// The clock in big digits, in the kind's colour (dim while paused).
    /// Centred by arithmetic: every row is `BigDigits.width` wide, and measuring each
    /// row's text was half the cost of a tick.
    /// Each glyph is a span of its own, so that the row diff rewrites only from the
    /// first glyph that changed (most ticks: the last digit).
    static func digits(_ state: DisplayState, scale: Int, width: Int, glyphs: Glyphs) -> [Line] {
        let ink = state.paused ? "2" : KindStyle.strong(state.kind)
        let text = state.clockText
        let pad = Span(String(repeating: " ", count: max(0, (width - BigDigits.width(text, scale: scale)) / 2)))
        let gap = Span(String(repeating: " ", count: scale))
        var lines: [Line] = []
        lines.reserveCapacity(BigDigits.height * scale)
        for pieces in BigDigits.rows(text, scale: scale, ink: glyphs.full) {
            var spans = [pad]
            spans.reserveCapacity(2 * pieces.count)
            for (position, piece) in pieces.enumerated() {
                if position > 0 { spans.append(gap) }
                spans.append(Span(piece, ink))
            }
            let line = Line(spans)
            for _ in 0..<scale { lines.append(line) }
        }
        return lines
    }

    static func segmentBar(_ state: DisplayState, width: Int, glyphs: Glyphs) -> Line {
        Line("  ") + bar(state.segmentProgress, width: width - 4, sgr: KindStyle.sgr(state.kind), glyphs: glyphs)
    }

    /// `round 2/8 · Burpees`
    static func roundText(_ state: DisplayState, glyphs: Glyphs) -> String? {
        guard let round = state.round, let rounds = state.rounds else { return state.block }
        return ["round \(round)/\(rounds)", state.block].compactMap { $0 }.joined(separator: " \(glyphs.dot) ")
    }

    /// `next: Rest 0:20`, or `last segment`; nothing when an open-ended workout has not
    /// made its next segment yet.
    static func nextText(_ state: DisplayState, glyphs: Glyphs) -> String? {
        guard let next = state.next else { return state.count == nil ? nil : "last segment" }
        return "next: \(next.name) \(TimeText.clock(next.duration))"
    }

    /// `3:20 ████████░░░░░░░░ 20:40 left`; an open-ended workout has no end to measure
    /// against: `3:20 done · open-ended`.
    static func workoutBar(_ state: DisplayState, width: Int, glyphs: Glyphs) -> Line {
        let done = TimeText.hms(Int(state.workoutDone + 1e-6))
        guard let workoutLeft = state.workoutLeft else {
            return Line("\(done) done \(glyphs.dot) open-ended", "2").centered(in: width)
        }
        let left = TimeText.clock(workoutLeft) + " left"
        let room = width - 4 - done.count - left.count - 2
        guard room >= 4 else { return Line(left).centered(in: width) }
        return Line("  " + done + " ") + bar(state.workoutProgress, width: room, sgr: nil, glyphs: glyphs)
            + Line(" " + left)
    }

    /// A progress bar `width` cells wide, in eighths of a cell where the glyphs allow.
    static func bar(_ fraction: Double, width: Int, sgr: String?, glyphs: Glyphs) -> Line {
        guard width > 0 else { return Line() }
        let steps = glyphs.eighths.isEmpty ? 1 : 8
        let filled = Int((min(1, max(0, fraction)) * Double(width * steps)).rounded(.down))
        let whole = filled / steps
        let part = filled % steps
        var text = repeated(glyphs.full, whole)
        if part > 0 { text += glyphs.eighths[part - 1] }
        let rest = repeated(glyphs.empty, width - whole - (part > 0 ? 1 : 0))
        return Line([Span(text, sgr), Span(rest, "2")])
    }

    /// `glyph` `count` times, copied as bytes (`String(repeating:count:)` appends one
    /// string at a time, and the bars are rebuilt on every tick).
    static func repeated(_ glyph: String, _ count: Int) -> String {
        let unit = Array(glyph.utf8)
        guard count > 0, !unit.isEmpty else { return "" }
        return String(unsafeUninitializedCapacity: unit.count * count) { buffer in
            for copy in 0..<count {
                for (offset, byte) in unit.enumerated() { buffer[copy * unit.count + offset] = byte }
            }
            return unit.count * count
        }
    }

    static func message(_ message: DisplayMessage?) -> Line {
        guard let message else { return Line() }
        switch message.kind {
        case .cue: return Line(message.text, "1")
        case .log: return Line(message.text)
        case .warning: return Line(message.text, "33")
        case .error: return Line(message.text, "1;31")
        }
    }

    static func keyHelp(_ state: DisplayState, width: Int, glyphs: Glyphs) -> Line {
        var line = Line()
        for binding in KeyBinding.table {
            guard var action = binding.short else { continue }
            if binding.action == .session(.toggle) && state.paused { action = "resume" }
            let key = binding.name == "q, Esc" ? "q" : binding.name.replacingOccurrences(of: " ", with: "")
            let part = Line([Span(line.width == 0 ? "" : "  "), Span(key, "1"), Span(" " + action, "2")])
            guard line.width + part.width <= width else { break }
            line = line + part
        }
        return line.centered(in: width)
    }

    /// `run --serve`'s invitation: the segment on one line, then the QR code (when it
    /// fits) and the URL to type instead.
    static func invitationLines(_ state: DisplayState, _ invitation: Invitation, size: ScreenSize,
                                glyphs: Glyphs) -> [Line] {
        var lines = [StatusLine.line(state, width: size.columns, glyphs: glyphs).centered(in: size.columns), Line()]
        let picture = invitation.picture(glyphs: glyphs)
        let fits = invitation.pictureSize.columns <= size.columns && lines.count + picture.count + 3 <= size.rows - 2
        if fits {
            let pad = Line(String(repeating: " ", count: (size.columns - invitation.pictureSize.columns) / 2))
            lines += picture.map { pad + $0 }
        } else {
            lines.append(Line("Follow and control this workout on a phone or another screen:").centered(in: size.columns))
        }
        lines.append(Line(invitation.url, "1").centered(in: size.columns))
        lines.append(Line("? hides this", "2").centered(in: size.columns))
        return lines
    }

    /// The help screen: each binding's name and what it does, from the one key table.
    static func helpLines(width: Int) -> [Line] {
        var rows: [Line] = []
        for binding in KeyBinding.table where !binding.name.isEmpty {
            for (position, text) in binding.help.split(separator: "\n").enumerated() {
                let key = position == 0 ? binding.name : ""
                rows.append(Line([Span(key.padding(toLength: 8, withPad: " ", startingAt: 0), "1"), Span(String(text))]))
            }
        }
        let blockWidth = min(width, rows.map(\.width).max() ?? 0)
        let pad = Line(String(repeating: " ", count: max(0, (width - blockWidth) / 2)))
        return [Line("Keys", "1").centered(in: width), Line()] + rows.map { (pad + $0).truncated(to: width) }
    }
}
