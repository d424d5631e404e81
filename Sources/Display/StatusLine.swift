import WorkoutValues

/// The display on a terminal too small for the full one (under 40×12): one line,
/// its parts left off from the right when they do not fit, so it never wraps.
public enum StatusLine {
    public static func line(_ state: DisplayState, width: Int, glyphs: Glyphs) -> Line {
        var parts: [Line] = []
        if state.paused { parts.append(Line("PAUSED", "1;7")) }
        parts.append(Line(KindStyle.label(state.kind), KindStyle.strong(state.kind)))
        parts.append(Line(state.name, "1"))
        parts.append(Line(state.clockText, "1"))
        if let tallies = ScreenLayout.tallyText(state, glyphs: glyphs) { parts.append(Line(tallies, "1")) }
        if let round = state.round, let rounds = state.rounds { parts.append(Line("round \(round)/\(rounds)")) }
        if let next = state.next { parts.append(Line("next: \(next.name)", "2")) }
        if let left = state.workoutLeft { parts.append(Line("\(TimeText.clock(left)) left", "2")) }
        var line = Line()
        for part in parts {
            let joined = line.width == 0 ? part : line + Line("  ") + part
            guard joined.width <= width else { break }
            line = joined
        }
        return line
    }
}
