/// A whole workout run at once on a virtual clock: `run --dry-run` and the fuzzer. A
/// pause from a hook is resumed straight away, so the run always ends.
public enum DryRun {
    public enum Ending: Equatable, Sendable {
        case finished
        /// Hooks kept extending: the workout was still going at `limit`; stopped there.
        case ranPastLimit
        /// A hook paused again on every resume at the same moment; stopped.
        case pausedOnEveryResume
        /// An open segment waited for an athlete, and the session has no stand-in
        /// (`SessionOptions.standInAthlete`); stopped.
        case waitedForTheAthlete
        /// The clock ran its step limit of timers without the workout ending
        /// (`VirtualClock.stepLimit`); stopped.
        case tookTooManySteps
    }

    /// Hooks that extend forever would never end: a run stops a day past the plan (an
    /// open-ended one at its horizon).
    public static func limit(_ timeline: Timeline) -> Double {
        timeline.isOpenEnded ? .infinity : timeline.duration + Duration.maximum
    }

    /// How many times a workout may pause again at one and the same moment.
    static let pausesAtOneMoment = 1_000

    /// Starts `session` and runs it to its end, or stops it at workout time `limit`.
    public static func run(_ session: Session, on clock: VirtualClock, until limit: Double) -> Ending {
        session.start()
        var lastPause = -1.0
        var pausesNow = 0
        while session.state != .finished {
            if !clock.run(until: limit) {
                let ending: Ending = clock.reachedStepLimit ? .tookTooManySteps : .ranPastLimit
                session.stop()
                return ending
            }
            if session.state == .running {
                session.stop()
                return .waitedForTheAthlete
            }
            if session.state == .paused {
                pausesNow = clock.now == lastPause ? pausesNow + 1 : 0
                lastPause = clock.now
                if pausesNow > pausesAtOneMoment {
                    session.stop()
                    return .pausedOnEveryResume
                }
                session.resume()
            }
        }
        return .finished
    }
}

extension DryRun.Ending {
    /// What went wrong, as a line after `workout: `; nil when the run finished.
    public var problem: String? {
        switch self {
        case .finished: nil
        case .ranPastLimit: "the dry run was still going a day past the planned end; stopped"
        case .waitedForTheAthlete: "the dry run waited for an open segment to be marked done; stopped"
        case .pausedOnEveryResume: "the dry run paused again on each resume (a hook calls pause() in on_resume?); stopped"
        case .tookTooManySteps: "the dry run ran 10,000,000 timers without ending (a hook that skips every segment "
            + "a generator makes?); stopped"
        }
    }
}
