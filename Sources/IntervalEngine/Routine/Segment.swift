import WorkoutValues

/// One segment of the flattened timeline, with its planned start.
public struct Segment: Equatable {
    /// 1-based position in the timeline.
    public var index: Int
    public var kind: String
    public var name: String
    public var duration: Double
    /// Planned offset from the workout's start, in seconds.
    public var start: Double
    /// Position within the innermost `rounds` block, if any.
    public var round: Int?
    public var rounds: Int?
    public var block: String?
    package var info: RoutineReference?
    var cues: [Cue]
    var onStart: RoutineReference?
    var onEnd: RoutineReference?
    /// The routine line that created the segment.
    public var line: Int
    /// Set when it ends when the athlete says so; `duration` is then its expected length
    /// in the plan, and its cap (or a day) while it runs.
    public var open: OpenEnd? = nil
    /// For an open segment, a condition on the sensors' values that marks it done
    /// (`until_hr_below`, `until_sample`), checked as samples come in. Kept here, not in
    /// `OpenEnd`, so that what events and snapshots carry holds no Lua function.
    var until: SampleCondition? = nil
    /// The heart-rate band that steers the machine during it (`hr = { 135, 145 }`).
    public var steer: ClosedRange<Double>? = nil
    /// A score it records by itself when it ends.
    public var score: SegmentScore? = nil
    /// The payload as data, for a routine made from data (`Routine.fromData`): read
    /// instead of `info`, which such a segment never has.
    var infoData: JSONValue? = nil

    public var end: Double { start + duration }

    /// Stands in for the current segment before an open-ended workout's first one is known.
    static var none: Segment { Segment(index: 0, kind: "", name: "", duration: 0, start: 0, round: nil, rounds: nil,
                              block: nil, info: nil, cues: [], onStart: nil, onEnd: nil, line: 0) }

    /// How long it lasts while it runs: an open segment runs to its cap, or for a day
    /// (the longest any segment runs) until it is done.
    var runningDuration: Double {
        guard let open else { return duration }
        return open.cap ?? Duration.maximum
    }
}
