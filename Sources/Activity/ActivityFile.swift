import Foundation
import History
import IntervalEngine
import PastSessions
import Platform
import WorkoutValues

/// A session's samples, one line a second, in `activities/` beside the history
/// (`$XDG_DATA_HOME/workout/activities/2026-11-25T19-14-25.csv`): a CSV file with a
/// header, which a spreadsheet opens and `history export --format fit|tcx` reads for
/// its records. The history line names the file; `history forget` removes it with the
/// line.
public enum ActivityFile {
    /// `t,time,segment,hr,power,cadence,speed,distance,…`: a column per `SensorQuantity`, by its key.
    public static let header = (["t", "time", "segment"] + SensorQuantity.allCases.map(\.key)).joined(separator: ",") + "\n"
    /// A file past this is not read (over two months of seconds).
    static let largest = 256 << 20

    /// The folder beside `history`.
    public static func directory(beside history: HistoryFile) -> String {
        ((history.path as NSString).deletingLastPathComponent as NSString).appendingPathComponent("activities")
    }

    /// The file named `name` in the folder beside `history`.
    public static func path(_ name: String, beside history: HistoryFile) -> String {
        (directory(beside: history) as NSString).appendingPathComponent(name)
    }

    /// `2026-11-25T19-14-25`: the local start time, without the colons some file systems refuse.
    static func stem(_ started: Date) -> String {
        String(Timestamp.local(started).prefix(19)).replacingOccurrences(of: ":", with: "-")
    }

    /// What a file holds: each whole record, in file order, and how many lines were not
    /// whole (a line cut by a crash mid-write).
    public struct Contents: Sendable {
        public var records: [ActivityRecord] = []
        public var damaged = 0
    }

    public static func read(_ path: String) throws(BoundedFile.Problem) -> Contents {
        let bytes = try BoundedFile.read(path, maximumSize: largest)
        var contents = Contents()
        let headerBytes = Array(header.utf8.dropLast())
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.endIndex
            let line = bytes[start..<end]
            if !line.isEmpty && !(start == bytes.startIndex && line.elementsEqual(headerBytes)) {
                if let record = ActivityRecord(line: line) {
                    contents.records.append(record)
                } else {
                    contents.damaged += 1
                }
            }
            start = end + 1
        }
        return contents
    }

    /// Removes the file an entry names, if it names one; a file already gone is fine.
    public static func remove(of entry: HistoryEntry, beside history: HistoryFile) throws(HistoryFile.Failure) {
        guard let name = entry.activity else { return }
        let path = path(name, beside: history)
        guard unlink(path) == 0 || errno == ENOENT else {
            throw HistoryFile.Failure(description: "cannot remove \(path): \(HistoryFile.errnoText())")
        }
    }
}
