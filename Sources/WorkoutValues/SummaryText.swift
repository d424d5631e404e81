/// How a workout is summed up in words: the line left on the terminal at the end, the
/// finish notification and each segment's notification (the engine's `SummaryText+Summary`),
/// and the time done as the live display shows it. One place, so they agree.
public enum SummaryText {
    /// Time since the start, pauses included, with the paused part said apart when
    /// there was one: the summary's words, and the live display's "time done", so the two
    /// agree.
    public static func elapsed(_ elapsed: Double, active: Double) -> String {
        let paused = elapsed - active
        let text = TimeText.clock(elapsed)
        return paused >= 0.5 ? "\(text) (\(TimeText.clock(paused)) paused)" : text
    }
}
