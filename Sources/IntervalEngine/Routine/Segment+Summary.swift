import WorkoutValues

extension SegmentSummary {
    /// The summary of a segment of the timeline.
    public init(_ segment: Segment, count: Int?) {
        self.init(index: segment.index, count: count, name: segment.name, kind: segment.kind,
                  duration: segment.open?.expect ?? segment.duration, round: segment.round, rounds: segment.rounds,
                  block: segment.block, open: segment.open, line: segment.line)
    }
}
