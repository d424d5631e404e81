import WorkoutValues

/// What the athlete counts, ends and gives: an open segment's bar (toward its cap, if
/// any), the tallies in words on a row of their own, and the numbers in big digits beside
/// the clock: the heart rate (or power), for which the clock keeps room, and the first
/// tally where the width allows at the clock's own scale.
extension ScreenLayout {
    /// Font columns between the clock and a number beside it.
    static let tallyGap = 3

    /// An open segment's bar: with a cap it fills toward it, `cap 3:00` at its end;
    /// without one there is nothing to fill toward, so it says how the segment ends.
    static func openBar(_ state: DisplayState, width: Int, glyphs: Glyphs) -> Line {
        if let distance = state.distance { return distanceBar(distance, state: state, width: width, glyphs: glyphs) }
        guard let cap = state.cap else {
            return Line("open \(glyphs.dot) Enter when done", "2").centered(in: width)
        }
        let label = " cap " + TimeText.clock(cap)
        let room = width - 4 - label.count
        guard room >= 4 else { return Line(label.dropFirst() + "", "2").centered(in: width) }
        return Line("  ") + bar(state.segmentProgress, width: room, sgr: KindStyle.sgr(state.kind), glyphs: glyphs)
            + Line(label, "2")
    }

    /// A distance step's bar: it fills toward the distance, `312 m of 400 m` at its end;
    /// before any source said, `400 m · no distance yet`.
    static func distanceBar(_ distance: DisplayState.DistanceStep, state: DisplayState, width: Int,
                            glyphs: Glyphs) -> Line {
        let target = DistanceText.words(distance.metres)
        guard let covered = distance.covered else {
            return Line("\(target) \(glyphs.dot) no distance yet", "2").centered(in: width)
        }
        let label = " " + DistanceText.words(min(covered, distance.metres).rounded(.down)) + " of " + target
        let room = width - 4 - label.count
        guard room >= 4 else { return Line(label.dropFirst() + "", "2").centered(in: width) }
        return Line("  ") + bar(min(1, max(0, covered / distance.metres)), width: room, sgr: KindStyle.sgr(state.kind),
                                glyphs: glyphs) + Line(label, "2")
    }

    /// `rounds 7 · reps 30`, or nil before anything was counted.
    static func tallyText(_ state: DisplayState, glyphs: Glyphs) -> String? {
        guard !state.tallies.isEmpty else { return nil }
        return state.tallies.map { "\($0.name) \($0.value)" }.joined(separator: " \(glyphs.dot) ")
    }

    /// A number in big digits beside the clock, and its ink (nil: the clock's own).
    struct BesideClock: Equatable {
        var text: String
        var ink: String?
    }

    /// The sensor number the clock keeps room for beside it: the heart rate, or without
    /// one the power. Its digits are counted in the clock's scale (three of them, as a
    /// heart rate or power mostly has), so it is large at every size; the clock is a
    /// little smaller for it.
    static func reservedSensor(_ state: DisplayState) -> SensorLine.Number? {
        state.sensors?.numbers.first
    }

    /// Font columns kept beside the clock for the reserved sensor number.
    static func reservedUnits(_ state: DisplayState) -> Int {
        reservedSensor(state) == nil ? 0 : tallyGap + BigDigits.units("000")
    }

    /// The numbers beside the clock, in order, as many as fit in `font` within `width`
    /// (a column kept free at each edge, as the clock keeps): the reserved sensor number
    /// (the heart rate in its zone's colour where the band has no colour of its own,
    /// dim when its sensor dropped out), the first tally, then the other sensor number.
    /// What does not fit is shown in words only.
    static func besideClock(_ state: DisplayState, font: DigitFont, width: Int) -> [BesideClock] {
        var candidates: [BesideClock] = []
        let plain = bandStyles(state).field == nil && !state.flash && !state.paused
        let numbers = state.sensors?.numbers ?? []
        func sensor(_ number: SensorLine.Number) -> BesideClock {
            BesideClock(text: String(number.value), ink: plain ? (number.stale ? "2" : number.sgr) : nil)
        }
        if let first = numbers.first { candidates.append(sensor(first)) }
        if let tally = state.tallies.first { candidates.append(BesideClock(text: String(tally.value), ink: nil)) }
        candidates += numbers.dropFirst().map(sensor)
        var used = font.width(state.clockText)
        var shown: [BesideClock] = []
        for candidate in candidates {
            let more = tallyGap * font.scale.columns + font.width(candidate.text)
            guard used + more <= width - 2 else { break }
            used += more
            shown.append(candidate)
        }
        return shown
    }
}
