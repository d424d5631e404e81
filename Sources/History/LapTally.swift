import IntervalEngine
import PastSessions
import WorkoutValues

/// The laps and pauses of a running session, taken from its events, for the history
/// line (and so for `history export --format fit|tcx`). A line stays short whatever the
/// routine: at most `mostLaps` laps, the last of them folding every segment after it
/// ("Work and 340 more", kind `mixed` when they differ), and at most `mostPauses` pauses
/// (the laps' timer times still count every pause).
public struct LapTally: Sendable {
    public static let mostLaps = 200
    public static let mostPauses = 100

    public private(set) var laps: [SessionLap] = []
    public private(set) var pauses: [SessionPause] = []
    /// Segments folded into the last lap beyond the first one it holds.
    private var folded = 0
    /// The name of the last lap before it folded others.
    private var foldedName = ""
    private var current: (summary: SegmentSummary, start: Double, paused: Double)?
    private var pausedSince: Double?

    public init() {}

    public mutating func receive(_ event: Event) {
        switch event.kind {
        case let .segmentStart(summary, _):
            end(at: event.t)
            current = (summary, event.t, 0)
        case .segmentEnd:
            end(at: event.t)
        case .pause:
            if pausedSince == nil { pausedSince = event.t }
        case .resume:
            resume(at: event.t)
        case .workoutEnd:
            resume(at: event.t)
            end(at: event.t)
        default:
            break
        }
    }

    /// The laps as they stand at `t`, the segment under way counted up to it (the
    /// watchdog's line).
    public func laps(at t: Double) -> [SessionLap] {
        var copy = self
        copy.resume(at: t)
        copy.end(at: t)
        return copy.laps
    }

    private mutating func resume(at t: Double) {
        guard let since = pausedSince else { return }
        pausedSince = nil
        let seconds = max(0, t - since)
        current?.paused += seconds
        if pauses.count < Self.mostPauses { pauses.append(SessionPause(at: since, seconds: seconds)) }
    }

    private mutating func end(at t: Double) {
        guard let (summary, start, paused) = current else { return }
        current = nil
        let pausing = pausedSince.map { max(0, t - $0) } ?? 0
        let elapsed = max(0, t - start)
        let lap = SessionLap(index: summary.index, name: String(summary.name.prefix(SessionLap.longestName)),
                             kind: summary.kind, start: start, elapsed: elapsed,
                             timer: max(0, elapsed - paused - pausing))
        guard laps.count >= Self.mostLaps, var last = laps.popLast() else {
            laps.append(lap)
            return
        }
        if folded == 0 { foldedName = last.name }
        folded += 1
        last.elapsed = lap.start + lap.elapsed - last.start
        last.timer += lap.timer
        if last.kind != lap.kind { last.kind = "mixed" }
        last.name = "\(foldedName) and \(folded) more"
        laps.append(last)
    }
}
