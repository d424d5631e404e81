import WorkoutValues

/// The lines around the band: the title, the bars, the info area, round and next, and
/// the message.
extension ScreenLayout {
    /// `WORK  Burpees`, the kind in its colour.
    static func title(_ state: DisplayState, width: Int) -> Line {
        (Line(KindStyle.label(state.kind), KindStyle.strong(state.kind)) + Line("  ") + Line(state.name, "1"))
            .centered(in: width)
    }

    static func segmentBar(_ state: DisplayState, width: Int, glyphs: Glyphs) -> Line {
        if state.open { return openBar(state, width: width, glyphs: glyphs) }
        return Line("  ") + bar(state.segmentProgress, width: width - 4, sgr: KindStyle.sgr(state.kind), glyphs: glyphs)
    }

    /// The segment's payload, word-wrapped to `width`, at most `limit` lines (the last
    /// one cut with an ellipsis when it does not all fit).
    static func infoArea(_ info: String?, width: Int, limit: Int, glyphs: Glyphs) -> [String] {
        guard let info, limit > 0, width > 0 else { return [] }
        // More than the area can show need not be wrapped.
        let shown = String(String.UnicodeScalarView(info.unicodeScalars.prefix((limit + 1) * width)))
        var lines: [String] = []
        var current = ""
        for piece in shown.split(separator: " ", omittingEmptySubsequences: true) {
            var word = Substring.UnicodeScalarView(piece.unicodeScalars)
            while !word.isEmpty {
                let room = width - current.unicodeScalars.count - (current.isEmpty ? 0 : 1)
                if word.count <= room {
                    current += (current.isEmpty ? "" : " ") + String(word)
                    break
                }
                if current.isEmpty {
                    // A word longer than the line is cut.
                    lines.append(String(String.UnicodeScalarView(word.prefix(width))))
                    word = word.dropFirst(width)
                } else {
                    lines.append(current)
                    current = ""
                }
            }
        }
        if !current.isEmpty { lines.append(current) }
        guard lines.count > limit || shown.unicodeScalars.count < info.unicodeScalars.count else { return lines }
        // More than fits: the last line kept ends in an ellipsis.
        var kept = Array(lines.prefix(limit))
        var last = kept.removeLast()
        if last.unicodeScalars.count >= width {
            last = String(String.UnicodeScalarView(last.unicodeScalars.prefix(width - 1)))
        }
        return kept + [last + glyphs.ellipsis]
    }

    /// `round 2/8 · Burpees`
    static func roundText(_ state: DisplayState, glyphs: Glyphs) -> String? {
        guard let round = state.round, let rounds = state.rounds else { return state.block }
        return ["round \(round)/\(rounds)", state.block].compactMap { $0 }.joined(separator: " \(glyphs.dot) ")
    }

    /// `next: Rest 0:20 · breathe out` (an open segment: `next: Squats open ~0:45`, what
    /// it is expected to take, as `plan` says it), or `last segment`; nothing when an
    /// open-ended workout has not made its next segment yet.
    static func nextText(_ state: DisplayState, glyphs: Glyphs) -> String? {
        guard let next = state.next else { return state.count == nil ? nil : "last segment" }
        let info = next.info.map { " \(glyphs.dot) \($0)" } ?? ""
        return "next: \(next.name) \(next.open ? "open ~" : "")\(TimeText.clock(next.duration))" + info
    }

    /// `3:20 ████████░░░░░░░░ 20:40 left`: the time done in the summary's words (pauses
    /// included and said apart: `3:45 (0:25 paused)`), the plan's progress and what is
    /// left of it. An open-ended workout has no end to measure against: `3:20 done ·
    /// open-ended`.
    static func workoutBar(_ state: DisplayState, width: Int, glyphs: Glyphs) -> Line {
        let done = state.elapsedText
        guard let workoutLeft = state.workoutLeft else {
            return Line("\(done) done \(glyphs.dot) open-ended", "2").centered(in: width)
        }
        let left = TimeText.clock(workoutLeft) + " left"
        let room = width - 4 - done.count - left.count - 2
        guard room >= 4 else { return Line(done + "  " + left).centered(in: width) }
        return Line("  " + done + " ") + bar(state.workoutProgress, width: room, sgr: nil, glyphs: glyphs)
            + Line(" " + left)
    }

    /// A progress bar `width` cells wide, in eighths of a cell where the glyphs allow.
    package static func bar(_ fraction: Double, width: Int, sgr: String?, glyphs: Glyphs) -> Line {
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
    /// string at a time, and the bars and the band are rebuilt on every tick).
    static func repeated(_ glyph: String, _ count: Int) -> String {
        let unit = Array(glyph.utf8)
        let size = unit.count
        guard count > 0, size > 0 else { return "" }
        return String(unsafeUninitializedCapacity: size * count) { buffer in
            unit.withUnsafeBytes { source in
                var position = 0
                while position < size * count {
                    UnsafeMutableRawPointer(buffer.baseAddress! + position).copyMemory(from: source.baseAddress!,
                                                                                        byteCount: size)
                    position += size
                }
            }
            return size * count
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
}
