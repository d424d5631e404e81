import IntervalEngine

/// What the athlete counts and ends: an open segment's bar (toward its cap, if any) and
/// the tallies, in words on a row of their own and, where the width allows at the clock's
/// own scale, in big digits beside it.
extension ScreenLayout {
    /// Font columns between the clock and a tally beside it.
    static let tallyGap = 3

    /// An open segment's bar: with a cap it fills toward it, `cap 3:00` at its end;
    /// without one there is nothing to fill toward, so it says how the segment ends.
    static func openBar(_ state: DisplayState, width: Int, glyphs: Glyphs) -> Line {
        guard let cap = state.cap else {
            return Line("open \(glyphs.dot) Enter when done", "2").centered(in: width)
        }
        let label = " cap " + TimeText.clock(cap)
        let room = width - 4 - label.count
        guard room >= 4 else { return Line(label.dropFirst() + "", "2").centered(in: width) }
        return Line("  ") + bar(state.segmentProgress, width: room, sgr: KindStyle.sgr(state.kind), glyphs: glyphs)
            + Line(label, "2")
    }

    /// `rounds 7 · reps 30`, or nil before anything was counted.
    static func tallyText(_ state: DisplayState, glyphs: Glyphs) -> String? {
        guard !state.tallies.isEmpty else { return nil }
        return state.tallies.map { "\($0.name) \($0.value)" }.joined(separator: " \(glyphs.dot) ")
    }

    /// The first tally's count, when it fits beside the clock in `font` within `width`
    /// (a column kept free at each edge, as the clock keeps); nil otherwise, and the words
    /// alone show it.
    static func bigTally(_ state: DisplayState, font: DigitFont, width: Int) -> String? {
        guard let first = state.tallies.first else { return nil }
        let text = String(first.value)
        let used = font.width(state.clockText) + tallyGap * font.scale.columns + font.width(text)
        return used <= width - 2 ? text : nil
    }
}
