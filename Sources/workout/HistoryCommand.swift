import ArgumentParser
import Foundation
import IntervalEngine

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show recent sessions, weekly totals and your streak.",
        discussion: """
            Sessions are read from $XDG_DATA_HOME/workout/history.jsonl (default \
            ~/.local/share/workout/history.jsonl), one JSON line each. A damaged line is \
            skipped with a warning.
            """)

    @Flag(help: "Print one JSON object: sessions (newest first), weeks, streak_days.")
    var json = false

    @Option(help: "How many recent sessions to show.")
    var limit = 10

    func validate() throws {
        guard limit >= 0 else { throw ValidationError("--limit must be 0 or more, got \(limit)") }
    }

    func run() throws {
        let file = HistoryFile()
        let read: (entries: [HistoryEntry], damaged: [Int])
        do {
            read = try file.read()
        } catch {
            Output.error("workout: \(error)")
            throw ExitCode.failure
        }
        let name = (file.path as NSString).lastPathComponent
        for line in read.damaged {
            Output.error("workout: \(name):\(line): skipped a damaged line")
        }
        let report = HistoryReport(entries: read.entries, limit: limit)
        if json {
            Output.line(report.json.text)
            return
        }
        guard !read.entries.isEmpty else {
            Output.line("No sessions yet (\(file.path)).")
            return
        }
        let style = Style(enabled: Terminal.usesColor)
        Output.line(style.bold("Recent sessions"))
        for entry in report.recent {
            Output.line("  " + HistoryText.session(entry, style: style))
        }
        Output.line(style.bold("Weekly totals"))
        for week in report.weeks {
            Output.line("  " + HistoryText.week(week))
        }
        Output.line("Streak: \(report.streakDays) day\(report.streakDays == 1 ? "" : "s")")
    }
}

/// The history's lines as text.
enum HistoryText {
    /// `2026-11-21 18:02  HIIT 20  24:00  finished  35/35 segments  16:00 work`
    static func session(_ entry: HistoryEntry, style: Style) -> String {
        let when = Timestamp.date(from: entry.started).map(localTime) ?? entry.started
        let outcome = entry.completed ? "finished" : style.dim("stopped ")
        return [when, Padding.column(entry.program, 20), Padding.column(TimeText.clock(entry.elapsed), 8, right: true), outcome,
                "\(entry.segmentsDone)/\(entry.segments) segments", "\(TimeText.clock(entry.workSeconds)) work"]
            .joined(separator: "  ")
    }

    /// `week of 2026-11-16   3 sessions   40:00 work`
    static func week(_ week: HistoryReport.Week) -> String {
        "week of \(week.start)  \(Padding.column(String(week.sessions), 3, right: true)) session\(week.sessions == 1 ? " " : "s")"
            + "  \(Padding.column(TimeText.clock(week.workSeconds), 8, right: true)) work"
    }

    /// `2026-11-21 18:02`, local time.
    private static func localTime(_ date: Date) -> String {
        let stamp = Timestamp.local(date)
        return stamp.prefix(10) + " " + stamp.dropFirst(11).prefix(5)
    }
}
