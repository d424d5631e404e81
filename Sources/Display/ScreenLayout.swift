import WorkoutValues

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
/// full display: everything else gets its rows first, and the countdown's big digits
/// take the rest, growing with both the width and the height; below that a single
/// status line.
public enum ScreenLayout {
    public static let smallest = ScreenSize(columns: 40, rows: 12)

    public static func lines(_ state: DisplayState, size: ScreenSize, glyphs: Glyphs) -> [Line] {
        layout(state, size: size, glyphs: glyphs).lines
    }

    /// Where the rows that move with the clock are: the band (the big digits, with the
    /// rows of its colour above and below them) and the two bars; and the fonts drawn
    /// for them, kept for the next tick.
    struct MovingRows {
        var band: Range<Int>
        var digits: Range<Int>
        var fonts: DigitFonts
        var segmentBar: Int
        var workoutBar: Int

        func shifted(by offset: Int) -> MovingRows {
            MovingRows(band: (band.lowerBound + offset)..<(band.upperBound + offset),
                       digits: (digits.lowerBound + offset)..<(digits.upperBound + offset), fonts: fonts,
                       segmentBar: segmentBar + offset, workoutBar: workoutBar + offset)
        }
    }

    /// The lines, and where the moving rows are (nil for the status line and the help).
    /// `fonts` are the previous frame's, reused when the scale is the same.
    static func layout(_ state: DisplayState, size: ScreenSize, glyphs: Glyphs,
                       fonts: DigitFonts? = nil) -> (lines: [Line], moving: MovingRows?) {
        guard size.columns >= smallest.columns, size.rows >= smallest.rows else {
            return ([StatusLine.line(state, width: size.columns, glyphs: glyphs)], nil)
        }
        let width = size.columns
        var content: [Line]
        var moving: MovingRows?
        if state.help {
            content = helpLines(width: width, rows: size.rows - 2, backGrace: state.backGrace)
                + (state.invitation.map { [Line(), Line($0.url, "2").centered(in: width)] } ?? [])
        } else if let invitation = state.invitation {
            content = invitationLines(state, invitation, size: size, glyphs: glyphs)
        } else {
            (content, moving) = workoutLines(state, width: width, rows: size.rows - 2, glyphs: glyphs, fonts: fonts)
        }
        let top = max(0, (size.rows - 2 - content.count) / 2)
        var lines = [header(state, width: width, glyphs: glyphs)]
        lines += Array(repeating: Line(), count: top) + content
        lines += Array(repeating: Line(), count: max(0, size.rows - 1 - lines.count))
        lines.append(keyHelp(state, width: width, glyphs: glyphs))
        return (lines, moving?.shifted(by: 1 + top))
    }

    /// Rows besides the digits: the title, the segment bar, round and next, the workout
    /// bar and the message.
    static let fixedRows = 5
    /// Rows the digits keep at the least (the font at half a row per pixel).
    static let fewestDigitRows = 3
    /// Lines of the info area at most.
    static let infoLines = 3

    /// Title, the band with the big clock, segment bar, the info area, round and next,
    /// workout bar and the last message, fitted into `rows`. The info area gets its lines
    /// first, then the digits grow as far as the rows and the width allow, and the rows
    /// left over (fewer than a step of the digits) go to round and next apart, the band's
    /// edges, and gaps. The digits' height depends only on rows and columns that never
    /// shrink as the terminal grows, so neither does it.
    static func workoutLines(_ state: DisplayState, width: Int, rows: Int, glyphs: Glyphs,
                             fonts: DigitFonts?) -> (lines: [Line], moving: MovingRows) {
        let info = infoArea(state.info, width: width - 4,
                            limit: min(infoLines, max(0, rows - fixedRows - fewestDigitRows)), glyphs: glyphs)
        let classRow = state.participants != nil && rows - fixedRows - info.count - 1 >= fewestDigitRows
        let room = rows - fixedRows - info.count - (classRow ? 1 : 0)
        let scale = DigitScale.fitting(units: widestClock(state), rows: room, width: width - 2, glyphs: glyphs)
        var spare = room - scale.rows
        func take(_ rows: Int = 1) -> Bool {
            guard spare >= rows else { return false }
            spare -= rows
            return true
        }
        let round = roundText(state, glyphs: glyphs)
        let next = nextText(state, glyphs: glyphs)
        // The tallies get a row of their own below the band first; without one they lead
        // the row of round and next, where a cut leaves them whole.
        let tallies = tallyText(state, glyphs: glyphs)
        let tallyRow = tallies != nil && take()
        // Round and next apart, when there are both; the band's edges come in pairs.
        let split = round != nil && next != nil && take()
        let edges = take(2)
        let (gapAfterBand, gapBeforeTotals, gapAfterTitle) = (take(), take(), take())

        let fonts = DigitFonts.for(scale, glyphs: glyphs, flash: state.flash, reusing: fonts)
        var lines = [title(state, width: width)]
        if gapAfterTitle { lines.append(Line()) }
        let bandStart = lines.count
        if edges { lines.append(bandEdge(state, font: fonts.current, width: width)) }
        let digitsStart = lines.count
        lines += digits(state, font: fonts.current, width: width)
        let digitsEnd = lines.count
        if edges { lines.append(bandEdge(state, font: fonts.current, width: width)) }
        let bandEnd = lines.count
        if tallyRow, let tallies { lines.append(Line(tallies, "1").centered(in: width)) }
        if gapAfterBand { lines.append(Line()) }
        let segmentBarRow = lines.count
        lines.append(segmentBar(state, width: width, glyphs: glyphs))
        lines += info.map { Line($0, "1").centered(in: width) }
        if split {
            lines.append(Line(round ?? "").centered(in: width))
            lines.append(Line(next ?? "", "2").centered(in: width))
        } else {
            let shared = tallyRow ? [round, next] : [tallies, round, next]
            let parts = shared.compactMap { $0 }
            var line = Line(parts.dropFirst().joined(separator: "  \(glyphs.dot)  "))
            if let first = parts.first {
                let lead = Line(first, tallyRow || tallies == nil ? nil : "1")
                line = line.width == 0 ? lead : lead + Line("  \(glyphs.dot)  ") + line
            }
            lines.append(line.centered(in: width))
        }
        if gapBeforeTotals { lines.append(Line()) }
        let workoutBarRow = lines.count
        lines.append(workoutBar(state, width: width, glyphs: glyphs))
        if classRow, let participants = state.participants { lines.append(participants.line(width: width, glyphs: glyphs)) }
        lines.append(message(state.message).centered(in: width))
        return (lines, MovingRows(band: bandStart..<bandEnd, digits: digitsStart..<digitsEnd, fonts: fonts,
                                  segmentBar: segmentBarRow, workoutBar: workoutBarRow))
    }

    /// Font columns of the clock, sized for the widest text a segment shows, so the scale
    /// does not jump when the tenths (`--tenths`) appear at 3 s; without them the digits
    /// can be larger. A heart rate (or power) beside it is counted in.
    static func widestClock(_ state: DisplayState) -> Int {
        max(BigDigits.units(state.clockText), BigDigits.units(state.clock.withTenths ? "0:00.0" : "0:00"))
            + reservedUnits(state)
    }

    /// The routine's name, PAUSED in reverse video while paused, and the segment number.
    static func header(_ state: DisplayState, width: Int, glyphs: Glyphs) -> Line {
        let unknown = glyphs.ellipsis == "…" ? "…" : "..."
        let right = Line("\(state.index)/\(state.count.map(String.init) ?? unknown) ", "2")
        guard state.paused else {
            // The sensors' values in the middle, where they fit.
            if let sensors = state.sensors?.line, sensors.width > 0 {
                let start = (width - sensors.width) / 2
                let left = Line(" " + state.routine, "2").truncated(to: max(0, start - 1))
                if start >= left.width + 1, width - start - sensors.width >= right.width + 1 {
                    let middle = left + Line(String(repeating: " ", count: start - left.width)) + sensors
                    return middle + Line(String(repeating: " ", count: width - middle.width - right.width)) + right
                }
            }
            return Line.spread(Line(" " + state.routine, "2"), right, width: width)
        }
        let badge = Line(" PAUSED ", "1;7")
        let start = (width - badge.width) / 2
        let left = Line(" " + state.routine, "2").truncated(to: start - 1)
        var line = left + Line(String(repeating: " ", count: start - left.width)) + badge
        let gap = width - line.width - right.width
        if gap >= 1 { line = line + Line(String(repeating: " ", count: gap)) + right }
        return line
    }

    static func keyHelp(_ state: DisplayState, width: Int, glyphs: Glyphs) -> Line {
        var line = Line()
        // Enter ends only an open segment: offered while one runs, and first, so that the
        // narrowest display still shows it.
        let done = KeyBinding.table.filter { $0.action == .session(.done) }
        let bindings = state.open ? done + KeyBinding.table.filter { $0.action != .session(.done) }
            : KeyBinding.table.filter { $0.action != .session(.done) }
        for binding in bindings {
            guard var action = binding.short else { continue }
            if binding.action == .session(.toggle) && state.paused { action = "resume" }
            // Swift's own filter, not Foundation's `replacingOccurrences`, which bridges to
            // NSString: a large part of a display run's start-up (BENCHMARKS.md).
            let key = binding.name == "q, Esc" ? "q" : String(binding.name.filter { $0 != " " })
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
    /// `back`'s grace comes from the session (`backGrace`). Within `rows`, the title's
    /// blank line goes first, then the title, then the last keys.
    static func helpLines(width: Int, rows budget: Int, backGrace: Double) -> [Line] {
        var rows: [Line] = []
        for binding in KeyBinding.table where !binding.name.isEmpty {
            var help = binding.help
            if binding.action == .session(.back) { help += "\n(within \(Number.format(backGrace)) s: the one before)" }
            for (position, text) in help.split(separator: "\n").enumerated() {
                let key = position == 0 ? binding.name : ""
                rows.append(Line([Span(Padding.column(key, 8), "1"), Span(String(text))]))
            }
        }
        let blockWidth = min(width, rows.map(\.width).max() ?? 0)
        let pad = Line(String(repeating: " ", count: max(0, (width - blockWidth) / 2)))
        let keys = rows.map { (pad + $0).truncated(to: width) }
        let title = Line("Keys", "1").centered(in: width)
        if keys.count + 2 <= budget { return [title, Line()] + keys }
        if keys.count + 1 <= budget { return [title] + keys }
        return Array(keys.prefix(max(0, budget)))
    }
}
