import WorkoutValues

/// The boundaries as inputs: the workout starts, a segment ends (its timer, or a command),
/// a cue fires, the workout finishes. Each returns the boundary's whole course as one
/// list, in the order of the boundary: `segment_end` → the old segment's `on_end` →
/// `on_segment_end` → the next segment entered → its timers → `segment_start` → its
/// `on_start` → `on_segment_start` → alerts → the boundary ends and what its hooks asked for
/// is applied. A hook or a listener may finish the session (`quit`), and the timeline may
/// have no segment left to enter: the session then carries out nothing more of the list
/// (`Session.carryOut`).
extension SessionMachine {
    /// Starts the workout: a boundary before the first segment, in which `on_start` runs
    /// (no segment is running while it does, or while a generator makes the first one, so
    /// `extend` from them does not act on the stand-in), then the first segment. Once only.
    mutating func start() -> [Action] {
        guard phase == .ready else { return [] }
        phase = .running(SessionPhase.Boundary(betweenSegments: true))
        return [.begin, .emit(.workoutStart), .callHook(.workoutStart)] + Self.entering(.first)
    }

    /// Ends the workout at `time`: the timers go, and the time of a pause under way counts
    /// as paused. Completed, it gives the finish's alerts and the summary's notification.
    mutating func finish(completed: Bool, at time: Double) -> [Action] {
        let paused = pausedSeconds + (phase.pausedSince.map { max(0, time - $0) } ?? 0)
        phase = .finished
        return [.cancelTimers] + (completed ? [.alert(.finish)] : [])
            + [.summarize(completed: completed, at: time, paused: paused), .callHook(.finish), .keepFinalScores]
            + (completed ? [.alert(.summary)] : []) + [.emit(.workoutEnd), .release]
    }

    /// The current segment's end timer fired at `time`: it ends, done, by its timer (or an
    /// open segment's cap).
    mutating func endTimerFired(at time: Double) -> [Action] {
        endSegment(at: time, skipped: false, by: segment.open == nil ? .timer : .cap)
    }

    /// Ends the current segment at `time`: a boundary between segments begins, its hooks
    /// run, and the next segment is entered.
    mutating func endSegment(at time: Double, skipped: Bool, by cause: SegmentEndCause) -> [Action] {
        phase.boundary = SessionPhase.Boundary(betweenSegments: true)
        tally.ended(segment.index - 1, skipped: skipped)
        countWork(until: time)
        return [.cancelTimers, .emit(.segmentEnd(skipped: skipped, by: cause)),
                .recordEnd(at: time, skipped: skipped, by: cause),
                .callHook(.segmentsOwnEnd), .callHook(.segmentEnd)] + Self.entering(.next(at: time))
    }

    /// Entering a segment, as the end of a list: the session finds it and calls `enter`,
    /// then its timers (while its clock runs), `segment_start`, its hooks, its alerts, and
    /// the boundary's end.
    static func entering(_ entry: Entry) -> [Action] {
        [.enterSegment(entry), .scheduleTimers, .emit(.segmentStart), .callHook(.segmentsOwnStart),
         .callHook(.segmentStart), .alert(.segmentStart), .endBoundary]
    }

    /// Enters `next` (the timeline's segment) at `time`: the segment's clock, laps and cues
    /// begin again and a boundary inside it begins. While paused it starts paused.
    mutating func enter(_ next: Segment, at time: Double) {
        switch phase {
        case .paused: phase = .paused(since: time, SessionPhase.Boundary(betweenSegments: false))
        case .running: phase = .running(SessionPhase.Boundary(betweenSegments: false))
        case .ready, .finished: return
        }
        segment = next
        segment.duration = segment.runningDuration
        laps = []
        tally.started(segment.index)
        segmentStart = time
        firedCues = []
    }

    /// Whether the current segment's clock runs, so that its timers are planned.
    var clockRuns: Bool { phase.state == .running }

    /// Leaves the boundary: what its hooks asked for, in the order it is applied (a pause
    /// at once, then a skip, or else a done); nothing outside a boundary.
    mutating func leaveBoundary() -> [Kept] {
        guard let boundary = phase.boundary else { return [] }
        phase.boundary = nil
        var kept: [Kept] = boundary.pause ? [.pause] : []
        if let cause = boundary.skip {
            kept.append(.skip(by: cause))
        } else if boundary.done {
            kept.append(.done)
        }
        return kept
    }

    /// The cue at `position`, `offset` seconds into the segment, fired: its text's alerts,
    /// or its function, run as a boundary of its own (unless one is in progress, whose it
    /// then is): a `pause()` or `skip()` from it waits until it returns.
    mutating func cueFired(_ position: Int, offset: Double) -> [Action] {
        firedCues.insert(position)
        guard segment.cues.indices.contains(position) else { return [] }
        let emit = Action.emit(.cue(position: position, offset: offset))
        switch segment.cues[position].action {
        case .text: return [emit, .alert(.cue)]
        case .function:
            guard phase.boundary == nil else { return [emit, .callHook(.cue(position: position))] }
            phase.boundary = SessionPhase.Boundary(betweenSegments: false)
            return [emit, .callHook(.cue(position: position)), .endBoundary]
        }
    }
}
