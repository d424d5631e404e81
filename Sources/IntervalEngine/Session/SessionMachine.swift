/// The session's clock and phase as a pure machine, as async-http-client's connection state
/// machines are: each input is a `mutating` function of the state that returns what the
/// session must carry out, in order (`Session.carryOut`), so a transition is a value to
/// test — input, then the state and the actions — without a clock or a run loop. Pause and
/// resume go through it; the other inputs still change the phase in `Session` directly.
struct SessionMachine: Equatable {
    /// Where the session is (`SessionPhase`).
    var phase: SessionPhase = .ready
    /// Workout time at which the current segment started, moved later by pauses.
    var segmentStart: Double = 0
    /// Workout seconds spent paused, for a generator's `run.elapsed`.
    var pausedSeconds: Double = 0

    /// What the session carries out for a transition.
    enum Action: Equatable {
        /// Cancel the segment's timers (each listener hears the moments withdrawn).
        case cancelTimers
        /// Plan the segment's timers anew from what remains.
        case scheduleTimers
        /// Emit `pause` or `resume` with the segment's index and what remains of it.
        case emit(Change)
        /// Give the alerts the alert policy makes for the change.
        case alert(Change)
        /// Call the routine's `on_pause` or `on_resume`.
        case callHook(Change)
    }

    enum Change: Equatable {
        case pause, resume
    }

    /// The athlete, a hook or a sleep pauses at `now`. Inside a boundary it waits for the
    /// boundary's end; while not running it does nothing.
    mutating func pause(at now: Double) -> [Action] {
        guard case .running(let boundary) = phase else { return [] }
        if var boundary {
            boundary.pause = true
            phase = .running(boundary)
            return []
        }
        phase = .paused(since: now, nil)
        return [.cancelTimers, .emit(.pause), .alert(.pause), .callHook(.pause)]
    }

    /// Resumes at `now`: the segment's start moves on by the time paused.
    mutating func resume(at now: Double) -> [Action] {
        guard case .paused(let since, let boundary) = phase else { return [] }
        segmentStart += now - since
        pausedSeconds += now - since
        phase = .running(boundary)
        return [.scheduleTimers, .emit(.resume), .alert(.resume), .callHook(.resume)]
    }
}
