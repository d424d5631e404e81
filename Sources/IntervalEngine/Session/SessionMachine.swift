import WorkoutValues

/// The session's clock, phase and counts as a pure machine, as async-http-client's
/// connection state machines are: each input is a `mutating` function of the state that
/// returns what the session must carry out, in order (`Session.carryOut`), so a transition
/// is a value to test — input, then the state and the actions — without a clock, a run
/// loop or Lua. The inputs are the athlete's commands (pause, resume, next, back, ±time,
/// done, a tally, a lap, quit; `SessionMachine+Athlete.swift`) and the boundaries (the
/// workout's start and finish, a segment's end timer, a cue, a segment's start, the end of
/// a boundary's hooks; `SessionMachine+Boundary.swift`). What needs more than these values — the events'
/// contents, Lua, the timeline's generators, the timers themselves, the summary — is the
/// session's, named by an action.
struct SessionMachine: Equatable {
    /// Where the session is (`SessionPhase`).
    var phase: SessionPhase = .ready
    /// Workout time at which the current segment started, moved later by pauses.
    var segmentStart: Double = 0
    /// Workout seconds spent paused, for a generator's `run.elapsed`.
    var pausedSeconds: Double = 0
    /// The current segment, its duration changed by `extend` (a stand-in before the first).
    var segment: Segment = .none
    /// How each segment ended, and the counts of the summary.
    var tally = SegmentTally(count: 0)
    /// Seconds of `work` segments done.
    var workSeconds: Double = 0
    /// The current segment's lap splits.
    var laps: [Double] = []
    /// The tallies counted so far (`r`, the page's +1), in the order first counted.
    var tallies: [TallyCount] = []
    /// The current segment's cues that have fired (by position), so that timers planned
    /// anew after a pause do not fire them again.
    var firedCues: Set<Int> = []

    /// What the session carries out for a transition, in order.
    package enum Action: Equatable {
        /// Cancel the segment's timers (each listener hears the moments withdrawn).
        case cancelTimers
        /// Plan the segment's timers anew from what remains.
        case scheduleTimers
        /// Emit an event about the current segment.
        case emit(Emission)
        /// Give the alerts of a moment: the alert policy's, or those its timer announced.
        case alert(AlertMoment)
        /// Call one of the routine's hooks (when the routine has it).
        case callHook(Hook)
        /// Keep what the ending segment leaves: an open segment's record, its score, the
        /// sensors' part of it.
        case recordEnd(at: Double, skipped: Bool, by: SegmentEndCause)
        /// Forget the record of the open segment numbered `index`: it is gone back over.
        case forgetOpenRecord(index: Int)
        /// Start the timeline's segment at `position` (from 0) at workout time `at`.
        case startSegment(position: Int, at: Double)
        /// Start the workout's clock, take the actions the routine's code calls and hear
        /// the computer's sleeps.
        case begin
        /// After `on_start`: start the first segment (asking a generator for it when none
        /// is known yet), or finish when there is none.
        case firstSegment
        /// After a segment's end and its hooks: start the segment that follows (asking a
        /// generator for it when none is known yet), or finish when there is none.
        case nextSegment(at: Double)
        /// Sum the finished workout up as of `at`, with `paused` seconds paused in all.
        case summarize(completed: Bool, at: Double, paused: Double)
        /// Put the scores `on_finish` recorded in the summary.
        case keepFinalScores
        /// Let the routine's code and its references go: no hook runs after this.
        case release
        /// A skip or a done the boundary's hooks asked for, through the scheduler at once
        /// (not recursion: a hook that skips every segment must not grow the stack).
        case planSkip(by: SegmentEndCause)
        case planDone
        /// Hand the machine its next input, once the actions before it are carried out
        /// (a boundary's hooks have run, and may have changed the state).
        case then(Input)
    }

    /// What an event says, of the current segment.
    enum Emission: Equatable {
        /// `workout_start`, then a `log` line for each value the history decided and each
        /// line the routine printed while it loaded.
        case workoutStart
        /// `workout_end`, with the summary.
        case workoutEnd
        case pause, resume
        case segmentStart
        case segmentEnd(skipped: Bool, by: SegmentEndCause)
        /// The cue at `position` in the segment's cues, `offset` seconds into it.
        case cue(position: Int, offset: Double)
        case tally(name: String, value: Int, add: Int)
        case lap(number: Int, split: Double)
    }

    /// Which moment's alerts.
    enum AlertMoment: Equatable {
        case pause, resume
        /// The current segment's start: those its boundary's timer announced, or the policy's.
        case segmentStart
        /// A text cue's, as its timer announced them.
        case cue
        /// The workout's end: those the last boundary's timer announced, or the policy's.
        case finish
        /// The summary's notification.
        case summary
    }

    /// Which of the routine's hooks, with the current segment as `seg`.
    enum Hook: Equatable {
        /// The workout's `on_start(w)`, and `on_finish(summary)`.
        case workoutStart, finish
        /// `on_pause`, `on_resume`.
        case pause, resume
        /// The segment's own `on_start`, then the workout's `on_segment_start`.
        case segmentsOwnStart, segmentStart
        /// The segment's own `on_end`, then the workout's `on_segment_end`.
        case segmentsOwnEnd, segmentEnd
        /// The function of the cue at `position`.
        case cue(position: Int)
        /// `on_tally(seg, name, value)`.
        case tally(name: String, value: Int)
        /// `on_lap(seg, split)`.
        case lap(split: Double)
    }

    /// An input the machine hands itself through the session (`Action.then`).
    enum Input: Equatable {
        /// The workout's `on_start` is done.
        case workoutStartHooksDone
        /// The boundary's hooks are done: leave it and apply what they asked for.
        case endBoundary
        /// The ended segment's hooks are done.
        case segmentEndHooksDone(at: Double)
        /// The started segment's hooks are done.
        case segmentStartHooksDone
        /// Run the cue function at `position` as a boundary of its own.
        case cueFunction(position: Int)
    }

    /// Takes an input the machine handed itself, at workout time `now`.
    mutating func take(_ input: Input, at now: Double) -> [Action] {
        switch input {
        case .workoutStartHooksDone: workoutStartHooksDone()
        case .endBoundary: endBoundary(at: now)
        case .segmentEndHooksDone(let time): segmentEndHooksDone(at: time)
        case .segmentStartHooksDone: segmentStartHooksDone()
        case .cueFunction(let position): cueFunction(position)
        }
    }

    /// Started and not finished: the commands act.
    var isUnderWay: Bool { phase != .ready && phase != .finished }

    /// Seconds of the current segment done at `now`, pauses excluded.
    func elapsedInSegment(at now: Double) -> Double {
        min(max(0, (phase.pausedSince ?? now) - segmentStart), segment.duration)
    }

    /// When a segment ended at `now` ends: then, or where its clock stopped while paused.
    func endingTime(at now: Double) -> Double {
        phase.pausedSince == nil ? now : segmentStart + elapsedInSegment(at: now)
    }

    /// Adds the current segment's work done by `time` to the work total.
    mutating func countWork(until time: Double) {
        guard segment.kind == "work" else { return }
        workSeconds += min(max(0, time - segmentStart), segment.duration)
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
