import Foundation
import IntervalEngine
import PastSessions
import Platform
import WorkoutValues

/// Records a session in the history from its events, so a session that ends any way —
/// finished, quit, Ctrl-C, SIGTERM — is written by this one path, when `workout_end`
/// comes. For the one exit that never reaches `workout_end`, the watchdog ending a
/// library call that cannot be interrupted, it keeps a line ready (the session as it
/// stood at its latest boundary, not completed, as the boundary's event carries it:
/// `Event.progress`) that the watchdog's signal handler appends before the process ends.
public final class HistoryRecorder: SessionListener {
    private let routine: Routine
    private let file: HistoryFile
    private let clock: () -> Date
    private var started: Date?
    /// The segments as they were done, and the pauses: the line's laps.
    private var laps = LapTally()
    /// The session's samples, whose file the line names.
    private let activity: (any SessionSamplesFile)?
    /// Why the session could not be recorded, if it could not: shown once the terminal
    /// is back, never fatal (the workout itself already happened).
    public private(set) var failure: String?
    public private(set) var recorded = false
    /// The session's heart rate and power totals, when it has sensors.
    public var sensorTotals: (() -> SensorTotals)?
    /// A class's participants and their averages (`run --mqtt`), read as the line is written.
    public var participantTotals: (() -> [ParticipantSummary])?

    /// The line written, once it is.
    public private(set) var entry: HistoryEntry?

    public init(routine: Routine, file: HistoryFile, clock: @escaping () -> Date = Date.init,
                activity: (any SessionSamplesFile)? = nil) {
        self.routine = routine
        self.activity = activity
        self.file = file
        self.clock = clock
    }

    public func receive(_ event: Event) {
        laps.receive(event)
        switch event.kind {
        case .workoutStart:
            started = clock()
            file.prepareDirectory()
            prepareLastResort(event.progress)
        case .segmentStart, .segmentEnd, .pause, .resume:
            prepareLastResort(event.progress)
        case let .workoutEnd(summary):
            LastResort.set(nil)
            record(summary)
        default:
            break
        }
    }

    private func entry(_ summary: Summary, ended: Bool = true) -> HistoryEntry {
        var entry = HistoryEntry(routine: routine, summary: summary, started: started ?? clock(), ended: clock())
        entry.sensors = sensorTotals?().summary
        entry.participants = participantTotals?() ?? []
        entry.laps = ended ? laps.laps : laps.laps(at: summary.elapsed)
        entry.pauses = laps.pauses
        entry.activity = activity?.name
        return entry
    }

    /// The athlete's rating, given once the run has ended: the line written is amended
    /// (`HistoryFile.amend`) and `entry` holds it, for the activity file made after.
    public func rate(rpe: Int?, feel: Int?) {
        guard var rated = entry, failure == nil, rpe != nil || feel != nil else { return }
        rated.rpe = rpe
        rated.feel = feel
        do {
            if try file.amend(entry!, to: rated) { entry = rated }
        } catch {
            failure = "the rating was not kept in the history: \(error)"
        }
    }

    private func record(_ summary: Summary) {
        guard !recorded else { return }
        recorded = true
        let entry = entry(summary)
        self.entry = entry
        do {
            try file.append(entry)
        } catch {
            failure = "the session was not recorded in the history: \(error)"
        }
    }

    /// The line the watchdog appends, from how the session stood at the event (`progress`:
    /// nil for an event no session emitted, which leaves the line as it was).
    private func prepareLastResort(_ progress: Summary?) {
        guard let progress else { return }
        LastResort.set((path: file.path, line: entry(progress, ended: false).json.text + "\n"))
    }
}

/// The file a session's samples are kept in (the `Activity` module's `ActivityRecorder`),
/// as the history line names it: the history knows the name, not how the file is written.
public protocol SessionSamplesFile: AnyObject {
    /// The file's name in the activities folder, once one is written.
    var name: String? { get }
}
