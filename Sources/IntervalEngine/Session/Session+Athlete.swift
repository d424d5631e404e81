import WorkoutValues

/// What the athlete tells the session besides pause and skip: an open segment is done, a
/// tally counts one more, a lap. Each is a `SessionCommand`, so a key, a button on the
/// page, `POST /control`, SIGUSR1 and a hook's `done()` all take the same door.
extension Session {
    /// The athlete's `done` within this many seconds of an open segment's start is taken
    /// as a second press of the one before (a bouncing pedal, a double tap), not as the
    /// end of this one.
    static let doneGrace = 1.0

    /// Ends the current segment, done, if it is open. From a hook (`done()`), it waits
    /// until the hook's boundary is done. While paused, the next segment starts paused.
    func markDone(by cause: SegmentEndCause) {
        carryOut(machine.markDone(by: cause, at: now))
    }

    /// The longest tally name, and how much one command may add or take away.
    public static let longestTallyName = Score.longestName
    public static let largestTallyStep = 1_000

    /// A tally's name follows the rule of every name (`VisibleText.isPlainName`), within
    /// a score's length, since `for_time` records tallies as scores.
    public static func isTallyName(_ name: String) -> Bool {
        name.utf8.count <= longestTallyName && VisibleText.isPlainName(name)
    }

    /// Counts `add` more on the tally `name` (never below 0), tells the listeners and
    /// calls `on_tally`. A name or step out of bounds is ignored: it comes from outside.
    func count(_ name: String, add: Int) {
        carryOut(machine.count(name, add: add))
    }

    /// What the tally `name` has counted (0 before its first count).
    public func tallyValue(_ name: String) -> Int {
        machine.tallyValue(name)
    }

    /// Records a lap split in the current segment: seconds since its previous lap or its
    /// start, pauses excluded.
    func lap() {
        carryOut(machine.lap(at: now))
    }

    /// What an ending segment leaves behind: an open segment's record, and the score of a
    /// `for_time{}` or `amrap{}`.
    func recordEnd(of segment: Segment, at time: Double, skipped: Bool, by cause: SegmentEndCause) {
        let seconds = Number.rounded(min(max(0, time - segmentStart), segment.duration), places: 3)
        let during = sensors.endSegment(at: time, running: state == .running, athlete: options.athlete)
        if segment.open != nil {
            openRecords.append(OpenSegmentRecord(index: segment.index, name: segment.name, seconds: seconds,
                                                 by: cause, laps: laps.map { Number.rounded($0, places: 3) },
                                                 sensors: during.summary))
        }
        guard !skipped, let score = segment.score else { return }
        switch score {
        case .forTime where cause == .cap:
            keep(Score(name: "capped", value: 1))
            for tally in tallies { keep(Score(name: tally.name, value: Double(tally.value))) }
        case .forTime:
            keep(Score(name: "time", value: seconds, lowerIsBetter: true))
        case .amrap:
            keep(Score(name: "rounds", value: Double(tallyValue("rounds"))))
        }
    }

    /// Keeps a score the session recorded itself, as `record` would.
    private func keep(_ score: Score) {
        guard scores.contains(where: { $0.name == score.name }) || scores.count < Score.mostNames else { return }
        scores.record(score)
        emit(.score(score))
    }
}
