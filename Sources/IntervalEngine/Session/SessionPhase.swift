import WorkoutValues

/// Where a session is, as one value: what it may do next follows from the case alone.
///
/// | phase | clock of the segment | control commands |
/// |---|---|---|
/// | `ready` | not started | ignored |
/// | `running(nil)` | runs | applied at once |
/// | `running(boundary)` | runs | `pause` and `next` wait for the boundary's end; `back` is ignored |
/// | `paused(since:, nil)` | stopped at `since` | applied at once |
/// | `paused(since:, boundary)` | stopped at `since` | as while running in a boundary |
/// | `finished` | gone | ignored |
///
/// A boundary is the time the routine's hooks run for a moment of the session (the
/// workout's start, a segment's end and the next one's start, a cue's function): what a
/// hook asks for that would move the session under its own feet is kept in the boundary
/// and applied when it ends.
enum SessionPhase: Equatable {
    case ready
    case running(Boundary?)
    /// `since`: workout time at which the segment's clock stopped.
    case paused(since: Double, Boundary?)
    case finished

    /// Hooks are running for a moment of the session; what they asked for waits here.
    struct Boundary: Equatable {
        /// Between two segments (after one's `segment_end`, before the next one's
        /// `segment_start`, or before the first): no segment is current, so there is
        /// nothing to lengthen.
        var betweenSegments: Bool
        /// A hook called `pause()`: the session pauses once the boundary is done.
        var pause = false
        /// A hook called `skip()`: the segment then current ends, skipped, by whom it says.
        var skip: SegmentEndCause?
        /// A hook called `done()`: the open segment then current ends, done.
        var done = false
    }

    /// The public, coarse state.
    var state: Session.State {
        switch self {
        case .ready: .ready
        case .running: .running
        case .paused: .paused
        case .finished: .finished
        }
    }

    /// The boundary in progress, if any.
    var boundary: Boundary? {
        get {
            switch self {
            case .running(let boundary), .paused(_, let boundary): boundary
            case .ready, .finished: nil
            }
        }
        set {
            switch self {
            case .running: self = .running(newValue)
            case .paused(let since, _): self = .paused(since: since, newValue)
            case .ready, .finished: break
            }
        }
    }

    /// When the segment's clock stopped, while paused.
    var pausedSince: Double? {
        if case .paused(let since, _) = self { return since }
        return nil
    }
}
