import Foundation
import History
import IntervalEngine
import PastSessions
import WorkoutValues

/// `workout history export SESSION --format fit|tcx`: which session is meant, and its
/// activity file's bytes, made from the history line and the samples it names.
public enum ActivityExport {
    public enum Format: String, Sendable, CaseIterable {
        case fit, tcx
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The position in `entries` (file order, oldest first) of the session `text` names:
    /// `last`; N, counting back from the latest (1), as `history forget` counts; or its
    /// local start, `2026-11-25`, `2026-11-25T19:14` or `2026-11-25 19:14:25`, which must
    /// match one session.
    public static func choose(_ text: String, in entries: [HistoryEntry]) throws(Failure) -> Int {
        guard !entries.isEmpty else { throw Failure(description: "the history has no sessions yet") }
        if text == "last" { return entries.count - 1 }
        if let number = Int(text), text.allSatisfy(\.isASCII) {
            guard number >= 1, number <= entries.count else {
                throw Failure(description: "there is no session \(number): the history has \(entries.count) "
                              + "(1 is the latest)")
            }
            return entries.count - number
        }
        let prefix = text.replacingOccurrences(of: " ", with: "T")
        guard prefix.count >= 10, LocalDay(String(prefix.prefix(10))) != nil else {
            throw Failure(description: "\(VisibleText.escape(text)) is not a session: give last, a number "
                          + "(1 is the latest) or a start as YYYY-MM-DD or YYYY-MM-DDTHH:MM")
        }
        let matches = entries.indices.filter { Timestamp.local(entries[$0].started).hasPrefix(prefix) }
        guard let only = matches.first else {
            throw Failure(description: "no session started at \(VisibleText.escape(text))")
        }
        guard matches.count == 1 else {
            let starts = matches.prefix(5).map { String(Timestamp.local(entries[$0].started).prefix(19)) }
            throw Failure(description: "\(matches.count) sessions started at \(VisibleText.escape(text)) "
                          + "(\(starts.joined(separator: ", "))\(matches.count > 5 ? ", …" : "")): give its time too")
        }
        return only
    }

    /// When `text` counts back from the latest (`last`, N) and a damaged line newer than the
    /// session chosen (on `line`) was passed over, what to say: the session exported is not
    /// the one the damaged line held, and that must not go unseen. Nil otherwise.
    public static func countedPast(_ text: String, line: Int, damaged: [Int], entry: HistoryEntry) -> String? {
        guard text == "last" || Int(text) != nil, let newer = damaged.last, newer > line else { return nil }
        return "\(newer): that line is damaged and not counted, so \(text == "last" ? "last" : "session " + text) "
            + "is the session started \(Timestamp.local(entry.started).prefix(19)) (line \(line))"
    }

    /// The session's activity: its laps, and its samples when its file is there. A
    /// warning says why the samples are missing or partly damaged, if they are.
    public static func activity(_ entry: HistoryEntry, beside history: HistoryFile) -> (Activity, warning: String?) {
        guard let name = entry.activity else { return (Activity(entry: entry), nil) }
        let path = ActivityFile.path(name, beside: history)
        do {
            let contents = try ActivityFile.read(path)
            let warning = contents.damaged == 0 ? nil
                : "\(path): skipped \(contents.damaged) damaged line\(contents.damaged == 1 ? "" : "s")"
            return (Activity(entry: entry, records: contents.records), warning)
        } catch {
            return (Activity(entry: entry), "\(path): \(error.explanation(what: "an activity file")); laps only")
        }
    }

    public static func encode(_ activity: Activity, as format: Format, creator: FITActivity.Creator) -> [UInt8] {
        switch format {
        case .fit: FITActivity.encode(activity, creator: creator)
        case .tcx: Array(TCXActivity.encode(activity, creator: creator).utf8)
        }
    }

    /// `2026-11-25T19-14-25.fit`: the file a session is exported to by default.
    public static func fileName(_ entry: HistoryEntry, format: Format) -> String {
        ActivityFile.stem(entry.started) + "." + format.rawValue
    }

    /// Each entry's file for `history export --all`, all different: sessions started in
    /// the same second, or at the same local time twice on the night the clocks go back,
    /// share a default name, so the later ones get `-2`, `-3`… (`2026-10-25T02-30-00-2.fit`)
    /// rather than overwrite the first.
    public static func fileNames(_ entries: [HistoryEntry], format: Format) -> [String] {
        var taken = Set<String>()
        return entries.map { entry in
            let stem = ActivityFile.stem(entry.started)
            var name = stem + "." + format.rawValue
            var number = 1
            while taken.contains(name) {
                number += 1
                name = "\(stem)-\(number).\(format.rawValue)"
            }
            taken.insert(name)
            return name
        }
    }
}
