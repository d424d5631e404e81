import WorkoutValues

/// The boundaries as inputs: a segment ends (its timer, or a command), the next one
/// starts, a cue fires, and the hooks of each are done. The order at a boundary is the
/// actions' order: `segment_end` → the old segment's `on_end` → `on_segment_end` → the new
/// segment's timers → `segment_start` → its `on_start` → `on_segment_start` → alerts → the
/// boundary ends and what its hooks asked for is applied. A hook may finish the session
/// (`quit`): what follows its hooks is then nothing (`segmentEndHooksDone`,
/// `segmentStartHooksDone`).
extension SessionMachine {
    /// Starts the workout: a boundary before the first segment, in which `on_start` runs
    /// (no segment is running while it does, or while a generator makes the first one, so
    /// `extend` from them does not act on the stand-in). Once only.
    mutating func start() -> [Action] {
        guard phase == .ready else { return [] }
        phase = .running(SessionPhase.Boundary(betweenSegments: true))
        return [.begin, .emit(.workoutStart), .callHook(.workoutStart), .then(.workoutStartHooksDone)]
    }

    /// `on_start` is done: the first segment, unless it finished the session.
    mutating func workoutStartHooksDone() -> [Action] {
        phase == .finished ? [] : [.firstSegment]
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

    /// Ends the current segment at `time`: a boundary between segments begins.
    mutating func endSegment(at time: Double, skipped: Bool, by cause: SegmentEndCause) -> [Action] {
        phase.boundary = SessionPhase.Boundary(betweenSegments: true)
        tally.ended(segment.index - 1, skipped: skipped)
        countWork(until: time)
        return [.cancelTimers, .emit(.segmentEnd(skipped: skipped, by: cause)),
                .recordEnd(at: time, skipped: skipped, by: cause),
                .callHook(.segmentsOwnEnd), .callHook(.segmentEnd), .then(.segmentEndHooksDone(at: time))]
    }

    /// The ended segment's hooks are done: the next segment, unless they finished the session.
    mutating func segmentEndHooksDone(at time: Double) -> [Action] {
        phase == .finished ? [] : [.nextSegment(at: time)]
    }

    /// Starts `next` (the timeline's segment) at `time`: the segment's clock, laps and cues
    /// begin again, a boundary inside it begins, and while running its timers are planned.
    /// While paused it starts paused.
    mutating func startSegment(_ next: Segment, at time: Double) -> [Action] {
        segment = next
        segment.duration = segment.runningDuration
        laps = []
        tally.started(segment.index)
        segmentStart = time
        firedCues = []
        switch phase {
        case .paused: phase = .paused(since: time, SessionPhase.Boundary(betweenSegments: false))
        case .running: phase = .running(SessionPhase.Boundary(betweenSegments: false))
        case .ready, .finished: return []
        }
        let timers: [Action] = phase.state == .running ? [.scheduleTimers] : []
        return timers + [.emit(.segmentStart), .callHook(.segmentsOwnStart), .callHook(.segmentStart),
                         .then(.segmentStartHooksDone)]
    }

    /// The started segment's hooks are done: its alerts, then the boundary ends, unless
    /// they finished the session.
    mutating func segmentStartHooksDone() -> [Action] {
        phase == .finished ? [] : [.alert(.segmentStart), .then(.endBoundary)]
    }

    /// Leaves the boundary at `now`, then applies the control actions its hooks asked for:
    /// a pause at once, a skip or a done through the scheduler.
    mutating func endBoundary(at now: Double) -> [Action] {
        guard let boundary = phase.boundary else { return [] }
        phase.boundary = nil
        var actions = boundary.pause ? pause(at: now) : []
        if let cause = boundary.skip {
            actions.append(.planSkip(by: cause))
        } else if boundary.done {
            actions.append(.planDone)
        }
        return actions
    }

    /// The cue at `position`, `offset` seconds into the segment, fired: its text's alerts,
    /// or its function, run as a boundary of its own.
    mutating func cueFired(_ position: Int, offset: Double) -> [Action] {
        firedCues.insert(position)
        guard segment.cues.indices.contains(position) else { return [] }
        switch segment.cues[position].action {
        case .text: return [.emit(.cue(position: position, offset: offset)), .alert(.cue)]
        case .function: return [.emit(.cue(position: position, offset: offset)), .then(.cueFunction(position: position))]
        }
    }

    /// Runs a cue's function as a boundary of its own (unless one is in progress): a
    /// `pause()` or `skip()` from it waits until it returns.
    mutating func cueFunction(_ position: Int) -> [Action] {
        guard phase.boundary == nil else { return [.callHook(.cue(position: position))] }
        phase.boundary = SessionPhase.Boundary(betweenSegments: false)
        return [.callHook(.cue(position: position)), .then(.endBoundary)]
    }
}
