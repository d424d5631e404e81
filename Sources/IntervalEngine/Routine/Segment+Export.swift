/// What `workout export` (the Interchange module) reads of a loaded routine beyond its
/// public fields: the text cues, and whether code is attached that no workout file can hold.
extension Segment {
    /// Text cues that fall inside the segment: seconds from its start, and the text.
    public var textCues: [(offset: Double, text: String)] {
        cues.compactMap { cue in cue.offset(in: duration).flatMap { offset in cue.text.map { (offset, $0) } } }
    }

    /// Cues inside the segment that call a function.
    public var functionCueCount: Int {
        cues.filter { $0.text == nil && $0.offset(in: duration) != nil }.count
    }

    /// `on_start` or `on_end` of the segment itself.
    public var hasOwnHooks: Bool { onStart != nil || onEnd != nil }

    /// The name a segment of this kind gets when none is given: `work` → `Work`.
    public static func defaultName(kind: String) -> String { Constructors.defaultName(kind) }

    /// How many segments a routine may unroll to.
    public static let maximumCount = Constructors.maximumSegments
}

extension Routine {
    /// The workout hooks the routine sets, by their Lua names.
    public var hookNames: [String] {
        [("on_start", hooks.onStart), ("on_segment_start", hooks.onSegmentStart), ("on_segment_end", hooks.onSegmentEnd),
         ("on_pause", hooks.onPause), ("on_resume", hooks.onResume), ("on_finish", hooks.onFinish)]
            .filter { $0.1 != nil }.map(\.0)
    }
}
