import Foundation
import IntervalEngine

extension Run {
    /// Appends the session to the history. A history that cannot be written costs one
    /// warning and nothing else: the workout itself already happened.
    func recordHistory(_ routine: Routine, _ summary: Summary, started: Date, ended: Date) {
        guard !noHistory else { return }
        let entry = HistoryEntry(routine: routine, summary: summary, started: started, ended: ended)
        do {
            try HistoryFile().append(entry)
        } catch {
            Output.error("workout: the session was not recorded in the history: \(error)")
        }
    }
}
