import WorkoutValues

/// A session's summary and a segment in words (`SummaryText`).
extension SummaryText {
    /// `Finished Tabata in 15:40 (0:25 paused): 49/49 segments (0 skipped), 2:40 of work`.
    /// The time is the whole session, pauses included, as the history records it; the
    /// paused part is stated apart when there was one.
    public static func line(routine: String, _ summary: Summary) -> String {
        let verb = summary.completed ? "Finished" : "Stopped"
        return "\(verb) \(routine) in \(elapsed(summary)): "
            + "\(summary.segmentsDone)/\(summary.segments) segments (\(summary.segmentsSkipped) skipped), "
            + "\(TimeText.clock(summary.workSeconds)) of work"
    }

    /// `24:00 · 20/20 segments · 12:00 of work`
    public static func notification(_ summary: Summary) -> String {
        "\(elapsed(summary)) · \(summary.segmentsDone)/\(summary.segments) segments · "
            + "\(TimeText.clock(summary.workSeconds)) of work"
    }

    /// `work · 0:20 · round 2/8 · next: Rest`
    static func segment(_ segment: Segment, next: Segment?) -> String {
        var parts = [segment.kind, TimeText.clock(segment.duration)]
        if let round = segment.round, let rounds = segment.rounds {
            parts.append("round \(round)/\(rounds)")
        }
        if let next { parts.append("next: \(next.name)") }
        return parts.joined(separator: " · ")
    }

    /// `15:40`, or `15:40 (0:25 paused)`.
    static func elapsed(_ summary: Summary) -> String {
        elapsed(summary.elapsed, active: summary.active)
    }
}
