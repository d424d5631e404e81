/// What a workout file can carry of a routine, read for `workout export` (`Interchange`),
/// which never sees the Lua behind the hooks and cue functions: only whether they are there.
extension Segment {
    /// Its text cues at seconds from its start, in the order written; a cue that calls a
    /// function has no text and is counted in `functionCues`.
    public var textCues: [(offset: Double, text: String)] {
        cues.compactMap { cue in
            guard let offset = cue.offset(in: duration), let text = cue.text else { return nil }
            return (offset, text)
        }
    }

    /// The cues within the segment that call a function.
    public var functionCues: Int {
        cues.filter { $0.offset(in: duration) != nil && $0.text == nil }.count
    }

    /// Whether it has an `on_start` or `on_end` hook.
    public var hasHooks: Bool { onStart != nil || onEnd != nil }
}

extension Routine {
    /// The workout-level hooks it sets, by their Lua names, in the API's order.
    public var hookNames: [String] {
        [("on_start", hooks.onStart), ("on_segment_start", hooks.onSegmentStart),
         ("on_segment_end", hooks.onSegmentEnd), ("on_pause", hooks.onPause),
         ("on_resume", hooks.onResume), ("on_finish", hooks.onFinish),
         ("on_tally", hooks.onTally), ("on_lap", hooks.onLap), ("on_sample", hooks.onSample)].filter { $0.1 != nil }.map(\.0)
    }
}
