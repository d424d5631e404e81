import Foundation
import IntervalEngine
import PastSessions
import WorkoutValues

/// `workout history export`: every session, sped-up ones included, as CSV (RFC 4180:
/// a header, CRLF line ends, fields holding a comma, a quote or a line break quoted with
/// quotes doubled, text cells that a spreadsheet would run as a formula made inert) or as
/// one JSON array (one entry a line, as the history holds them).
/// Writing CSV is a few lines of quoting, so no CSV library is linked for it.
public enum HistoryExport {
    public static let columns = ["started", "ended", "program", "file", "completed", "elapsed", "segments_done",
                                 "segments", "work_seconds", "speed", "scores", "open"]

    /// The entries whose local start date is within `since`…`until` (both included).
    public static func select(_ entries: [HistoryEntry], since: LocalDay?, until: LocalDay?) -> [HistoryEntry] {
        guard since != nil || until != nil else { return entries }
        return entries.filter { entry in
            let day = LocalDay(entry.started)
            return (since.map { day >= $0 } ?? true) && (until.map { day <= $0 } ?? true)
        }
    }

    /// The CSV text; `field` may change each field first (escaping for a terminal).
    public static func csv(_ entries: [HistoryEntry], field: (String) -> String = { $0 }) -> String {
        var text = columns.joined(separator: ",") + "\r\n"
        for entry in entries {
            let fields = [
                Timestamp.local(entry.started), Timestamp.local(entry.ended), inert(entry.program), inert(entry.file),
                entry.completed ? "true" : "false", Number.format(Number.rounded(entry.elapsed, places: 3)),
                String(entry.segmentsDone), String(entry.segments),
                Number.format(Number.rounded(entry.workSeconds, places: 3)), Number.format(entry.speed),
                inert(entry.scoresJSON.text),
                // Each open segment's length and laps, as the history line holds them.
                entry.open.isEmpty ? "" : inert(JSONValue.array(entry.open.map(\.json)).text),
            ]
            text += fields.map { quoted(field($0)) }.joined(separator: ",") + "\r\n"
        }
        return text
    }

    /// `[` then one entry a line, then `]`.
    public static func json(_ entries: [HistoryEntry]) -> String {
        guard !entries.isEmpty else { return "[]\n" }
        return "[\n" + entries.map(\.json.text).joined(separator: ",\n") + "\n]\n"
    }

    /// A text cell a spreadsheet would take as a formula — one starting with `=`, `+`, `-`,
    /// `@`, a tab or a carriage return, as OWASP lists them — with a `'` before it, so that a
    /// routine named `=HYPERLINK(…)` (which `import` may take from a downloaded file) is
    /// shown as text and never run. Only the text cells (program, file, scores) are
    /// changed: a number cell holds nothing but a number (at worst `-5`, from a history
    /// edited by hand, which a spreadsheet reads as minus five), and stays a number.
    static func inert(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, ["=", "+", "-", "@", "\t", "\r"].contains(first) else { return text }
        return "'" + text
    }

    static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else {
            return field
        }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
