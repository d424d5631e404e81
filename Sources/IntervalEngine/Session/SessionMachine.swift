import WorkoutValues

/// The session's clock, phase and counts as a pure machine, as async-http-client's
/// connection state machines are: each input is a `mutating` function of the state that
/// returns what the session must carry out, in order (`Session.carryOut`), so a transition
/// is a value to test — input, then the state and the actions — without a clock, a run
/// loop or Lua. The inputs are the athlete's commands (pause, resume, next, back, ±time,
/// done, a tally, a lap, quit; `SessionMachine+Athlete.swift`) and the boundaries (the
/// workout's start and finish, a segment's end timer, a cue; `SessionMachine+Boundary.swift`).
/// An input returns one list, a boundary's whole course in it (its hooks, the next
/// segment's entry and hooks, its end); the machine never hands itself a further input
/// through the session. What needs more than these values — the events' contents, Lua,
/// the timeline's generators, the timers themselves, the summary — is the session's, named
/// by an action; the steps a boundary takes on its way (`enter`, `leaveBoundary`) are
/// mutations that return no list.
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

    /// What the session carries out for an input, in order: one list per input, the whole
    /// of a boundary in it. Where an action depends on what the hooks before it did, the
    /// session decides as it comes to it, from the machine's state then: a list stops where
    /// the session finished (a hook's or a listener's `quit`, or the timeline ran out), the
    /// timers are planned only while the segment's clock runs, and the commands a boundary
    /// kept are applied as inputs of their own when it ends (`leaveBoundary`).
    package enum Action: Equatable {
        /// Cancel the segment's timers (each listener hears the moments withdrawn).
        case cancelTimers
        /// Plan the segment's timers anew from what remains, if its clock runs (a segment
        /// entered while paused is planned at the resume).
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
        /// Enter a segment (`enter`): the session finds it (asking a generator when none
        /// is known yet), or finishes when there is none.
        case enterSegment(Entry)
        /// Start the workout's clock, take the actions the routine's code calls and hear
        /// the computer's sleeps.
        case begin
        /// Sum the finished workout up as of `at`, with `paused` seconds paused in all.
        case summarize(completed: Bool, at: Double, paused: Double)
        /// Put the scores `on_finish` recorded in the summary.
        case keepFinalScores
        /// Let the routine's code and its references go: no hook runs after this.
        case release
        /// The boundary's hooks are done: leave it (`leaveBoundary`) and apply what they
        /// asked for.
        case endBoundary
    }

    /// Which segment a boundary enters.
    package enum Entry: Equatable {
        /// The timeline's first, after `on_start`.
        case first
        /// The one after the current segment, which ended at `at`.
        case next(at: Double)
        /// The timeline's segment at `position` (from 0), at workout time `at`: `back`.
        case position(Int, at: Double)
    }

    /// A command a hook gave during a boundary, applied when the boundary ends.
    package enum Kept: Equatable {
        /// `pause()`: the session pauses at once, as the athlete's pause does.
        case pause
        /// `skip()` or `done()`: through the scheduler at once (not recursion: a hook that
        /// skips every segment must not grow the stack).
        case skip(by: SegmentEndCause)
        case done
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
