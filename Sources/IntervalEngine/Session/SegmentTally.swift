/// How the workout's segments have gone so far: how each one last ended, by position,
/// and the counts the summary reports, kept in step with it (a summary is asked for at
/// every boundary, so the counts are not recounted from 100,000 positions each time).
struct SegmentTally: Equatable {
    /// How a segment ended.
    enum Ending: UInt8 {
        case pending, done, skipped
    }

    private(set) var endings: [Ending]
    /// Segments that ended, skipped ones included.
    private(set) var done = 0
    private(set) var skipped = 0
    /// The highest segment number started: an open-ended workout's `summary.segments`.
    private(set) var reached = 0

    init(count: Int) {
        endings = Array(repeating: .pending, count: count)
    }

    /// The segment numbered `index` (from 1) has started.
    mutating func started(_ index: Int) {
        reached = max(reached, index)
    }

    /// The segment at `position` ended, done or skipped.
    mutating func ended(_ position: Int, skipped wasSkipped: Bool) {
        forget(position)
        endings[position] = wasSkipped ? .skipped : .done
        done += 1
        if wasSkipped { skipped += 1 }
    }

    /// Forgets how the segment at `position` ended: the user went back to redo it.
    mutating func forget(_ position: Int) {
        switch endings[position] {
        case .pending: return
        case .done: done -= 1
        case .skipped: done -= 1; skipped -= 1
        }
        endings[position] = .pending
    }

    /// An open-ended timeline grew to `count` segments.
    mutating func grow(to count: Int) {
        if endings.count < count {
            endings += Array(repeating: .pending, count: count - endings.count)
        }
    }
}
