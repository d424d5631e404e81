import Activity
import Foundation
import History
import IntervalsICU
import Platform
import WorkoutValues

/// After a recorded run: a session of the intervals.icu calendar (`run today`) goes into
/// the upload queue, paired with its planned event, and whatever waits there is sent
/// (`UploadQueue`): the session just run, and those an earlier run or sync could not send.
extension RunAssembly {
    func sendToCalendar() {
        guard !request.noUpload else { return }
        let directories = UserDirectories(environment: Terminal.environment)
        let queue = UploadQueue(directories)
        if request.plannedEvent != nil, history == nil {
            Output.error("workout: a run with --no-history is not sent to intervals.icu: its FIT file is made from the history's line")
        }
        if let event = request.plannedEvent, let entry = history?.entry {
            guard !entry.isSpedUp else {
                Output.error("workout: a run at --speed \(Number.format(request.speed)) is not sent to intervals.icu: it was not the workout as planned")
                return
            }
            let historyFile = request.history ?? HistoryFile(environment: Terminal.environment)
            let (activity, warning) = ActivityExport.activity(entry, beside: historyFile)
            if let warning { Output.error("workout: \(warning)") }
            let bytes = FITActivity.encode(activity, creator: FITActivity.Creator(name: "workout", version: Version.number))
            do throws(IntervalsProblem) {
                _ = try queue.add(bytes, name: ActivityExport.fileName(entry, format: .fit), event: event,
                                  rpe: entry.rpe, feel: entry.feel)
            } catch {
                Output.error("workout: \(error.message)")
                return
            }
        }
        guard !queue.waiting().isEmpty else { return }
        CalendarSync.send(queue, quiet: request.json)
    }
}

/// Sending the queue and saying what became of each session: by `run` at its end and by
/// `workout intervals sync`.
enum CalendarSync {
    /// Whether nothing is left waiting. `quiet`: only what still waits is said (on
    /// standard error), for `--json`'s standard output.
    @discardableResult
    static func send(_ queue: UploadQueue, quiet: Bool = false) -> Bool {
        let service: IntervalsService
        do throws(IntervalsProblem) {
            service = try PlannedToday.service()
        } catch {
            Output.error("workout: \(plural(queue.waiting().count)) \(waits(queue)): \(error.message)")
            return false
        }
        var left = 0
        for outcome in queue.send(with: service) {
            let name = outcome.name.visible
            switch outcome.result {
            case let .sent(activity, rating):
                if !quiet { Output.line("Sent \(name) to intervals.icu\(activity.map { " (activity \($0.visible))" } ?? "").") }
                if let rating { Output.error("workout: the rating of \(name) is in its FIT file, but did not reach intervals.icu: \(rating)") }
            case .alreadyThere:
                if !quiet { Output.line("intervals.icu already had \(name).") }
            case .waiting(let why):
                left += 1
                Output.error("workout: \(name) waits in \(queue.folder.visible) for `workout intervals sync`: \(why)")
            }
        }
        return left == 0
    }

    static func plural(_ count: Int) -> String { count == 1 ? "1 session" : "\(count) sessions" }

    static func waits(_ queue: UploadQueue) -> String {
        "\(queue.waiting().count == 1 ? "waits" : "wait") in \(queue.folder.visible) for `workout intervals sync`"
    }
}
