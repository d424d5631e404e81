import WorkoutValues

/// What `workout check` finds by running a loaded routine on the virtual clock, as
/// `run --dry-run` does (pauses resume at once, a stand-in athlete ends open segments),
/// silently: the mistakes that show only while it runs. A hook that fails, or a run that
/// cannot end, is an error; a sound file a hook plays without the routine naming it, and
/// a percent-of-FTP target without an FTP, are warnings (`PercentWithoutFTP`).
public struct RoutineCheck: Sendable {
    /// Each as a line after `workout: `.
    public var errors: [String] = []
    public var warnings: [String] = []

    /// Runs `routine` to its end; `ftp`: the athlete's, if any (`--set ftp=`, the athlete file).
    public static func run(_ routine: Routine, ftp: Double?) -> RoutineCheck {
        var check = RoutineCheck()
        let clock = VirtualClock()
        var options = SessionOptions(bell: false, payloadsInEvents: false)
        options.standInAthlete = true
        let session = Session(routine: routine, scheduler: clock, options: options)
        var percent: (first: PercentWithoutFTP, more: Int)?
        session.subscribe { event in
            switch event.kind {
            case let .error(message, hook, _):
                check.errors.append(VisibleText.escape("error in \(hook): \(message)"))
            case .segmentStart:
                guard let found = PercentWithoutFTP(file: routine.fileName, part: session.snapshot().current, ftp: ftp)
                else { return }
                percent = percent.map { ($0.first, $0.more + 1) } ?? (found, 0)
            default:
                break
            }
        }
        if let problem = DryRun.run(session, on: clock, until: DryRun.limit(routine.timeline)).problem {
            check.errors.append(problem)
        }
        check.warnings = routine.undeclaredSounds.map(\.warning)
        if let (first, more) = percent {
            check.warnings.append(first.warning(more: more))
        }
        return check
    }
}
