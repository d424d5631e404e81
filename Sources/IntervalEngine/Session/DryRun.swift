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
                session.stop()
                return .ranPastLimit
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
