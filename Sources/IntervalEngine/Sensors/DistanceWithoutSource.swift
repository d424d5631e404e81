import WorkoutValues

/// A distance step (`work{ distance = 400 }`) with nothing to measure it: no sensors at
/// all, or none that has given a distance by the time the step starts (a heart-rate strap
/// and a bike trainer count no metres of a run). The step then ends at its cap, or when
/// the athlete marks it done, and the athlete is told so plainly, once: `workout check`
/// when no sensor is remembered, `run` at the start when it has no sensors, else when the
/// first such step is 5 s in without a distance.
public struct DistanceWithoutSource: Sendable, Equatable {
    /// The routine's file name (`mine.lua`).
    public var file: String
    public var segment: SegmentSummary
    public var metres: Double
    public var cap: Double?

    public init?(file: String, segment: Segment, count: Int?) {
        guard let open = segment.open, let metres = open.distance else { return nil }
        self.file = file
        self.segment = SegmentSummary(segment, count: count)
        self.metres = metres
        cap = open.cap
    }

    /// The first distance step of `timeline`, and how many more there are.
    public static func first(file: String, in timeline: Timeline) -> (first: DistanceWithoutSource, more: Int)? {
        let found = timeline.segments.compactMap { DistanceWithoutSource(file: file, segment: $0, count: timeline.count) }
        return found.first.map { ($0, found.count - 1) }
    }

    /// The warning, escaped for a terminal: which step (and how many more), why, and how
    /// it ends instead. `why`: `no sensors are connected`, say.
    public func warning(more: Int = 0, why: String) -> String {
        let others = more == 0 ? "" : " (and \(more) more distance step\(more == 1 ? "" : "s") after it)"
        let ending = cap.map { "at its cap (\(TimeText.clock($0))) or when you mark it done" } ?? "when you mark it done"
        return VisibleText.escape("\(file):\(segment.line): segment \(segment.index) \"\(segment.name)\"\(others) ends after "
            + "\(DistanceText.words(metres)) of a treadmill's, rower's or foot pod's distance, but \(why); "
            + "without one it ends \(ending)")
    }
}
