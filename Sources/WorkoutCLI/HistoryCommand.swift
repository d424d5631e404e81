import ArgumentParser
import Display
import Foundation
import History
import IntervalEngine
import PastSessions
import WorkoutValues

/// `workout history`: the sessions list (the default), and `stats`, `export`, `forget`.
struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show recent sessions, weekly totals and your streak; stats, export, forget.",
        discussion: """
            Sessions are read from $XDG_DATA_HOME/workout/history.jsonl (default \
            ~/.local/share/workout/history.jsonl), one JSON line each. A damaged line is \
            skipped with a warning. Sessions not run at 1x (--speed) are marked and left \
            out of totals, streaks and statistics unless --all is given.
            """,
        subcommands: [HistoryList.self, HistoryStatsCommand.self, HistoryExportCommand.self, HistoryForget.self],
        defaultSubcommand: HistoryList.self)
}

struct HistoryList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Show recent sessions, weekly totals and your streak.")

    @Flag(help: "Print one JSON object: sessions (newest first), weeks, streak_days.")
    var json = false

    @Option(help: "How many recent sessions to show.")
    var limit = 10

    @Flag(help: "Count sped-up sessions (--speed other than 1) in the totals and the streak.")
    var all = false

    func validate() throws {
        guard limit >= 0 else { throw ValidationError("--limit must be 0 or more, got \(limit)") }
    }

    func run() throws {
        // Streamed: only what the report shows is kept, however long the history.
        var tally = HistoryReport.Tally(limit: limit, includeSpedUp: all)
        let (file, sessions) = try HistoryReading.stream { entry, _ in tally.add(entry) }
        let report = tally.report
        if json {
            Output.line(report.json.text)
            return
        }
        guard HistoryReading.hasSessions(file, count: sessions) else { return }
        let style = Style(enabled: Terminal.usesColor)
        Output.line(style.bold("Recent sessions"))
        for entry in report.recent {
            Output.line("  " + HistoryText.session(entry, style: style))
        }
        Output.line(style.bold("Weekly totals"))
        for week in report.weeks {
            Output.line("  " + HistoryText.week(week))
        }
        Output.line("Streak: \(HistoryStatsPage.count(report.streakDays, "day"))")
    }
}

/// The history file read, each damaged line warned about on standard error.
enum HistoryReading {
    /// Every entry, with its line.
    static func read() throws -> (HistoryFile, HistoryFile.Contents) {
        var contents = HistoryFile.Contents()
        let (file, _) = try stream({ contents.add($0, line: $1) }, damaged: { contents.damaged.append($0) })
        return (file, contents)
    }

    /// Each entry handed to `entry` with its line as it is read (and each damaged line's
    /// number to `damaged`, after the warning); how many entries there were.
    static func stream(_ entry: (HistoryEntry, Int) -> Void, damaged: (Int) -> Void = { _ in }) throws -> (HistoryFile, Int) {
        let file = HistoryFile()
        let name = (file.path as NSString).lastPathComponent
        var sessions = 0
        do {
            try file.forEachEntry { read, line in
                sessions += 1
                entry(read, line)
            } damaged: { line in
                Output.error("workout: \(name):\(line): skipped a damaged line")
                damaged(line)
            }
        } catch {
            Output.error("workout: \(error)")
            throw ExitCode.failure
        }
        return (file, sessions)
    }

    /// False, after saying so, when the history holds no session.
    static func hasSessions(_ file: HistoryFile, count: Int) -> Bool {
        if count == 0 { Output.line("No sessions yet (\(file.path.visible)).") }
        return count > 0
    }
}

/// The history's lines as text.
enum HistoryText {
    /// `2026-11-21 18:02  HIIT 20  24:00  finished  35/35 segments  16:00 work  rounds 7`,
    /// with `at 20x` after the time for a sped-up session, and `hr 142 avg 171 max  205 W
    /// avg` after it all when sensors gave them.
    static func session(_ entry: HistoryEntry, style: Style) -> String {
        let stamp = Timestamp.local(entry.started)
        let when = String(stamp.prefix(10) + " " + stamp.dropFirst(11).prefix(5))
        let outcome = entry.completed ? "finished" : style.dim("stopped ")
        var parts: [String] = [when, HistoryStatsPage.padded(VisibleText.escape(entry.program), 20),
                     Padding.column(TimeText.clock(entry.elapsed), 8, right: true), outcome,
                     "\(entry.segmentsDone)/\(entry.segments) segments", "\(TimeText.clock(entry.workSeconds)) work"]
        if entry.isSpedUp {
            parts.insert(style.dim("at \(Number.format(entry.speed))x"), at: 3)
        }
        if !entry.scores.isEmpty {
            parts.append(entry.scores.map { VisibleText.escape($0.name) + " " + $0.valueText }.joined(separator: ", "))
        }
        if let sensors = entry.sensors { parts += sensorText(sensors) }
        if !entry.participants.isEmpty { parts.append(classText(entry.participants)) }
        return parts.joined(separator: "  ")
    }

    /// Participants shown of a class's session; the rest are counted.
    static let participantsShown = 3

    /// `class of 12: Ann hr 142 avg 171 max 205 W avg, Bob hr 150 avg 180 max, … 10 more`.
    static func classText(_ participants: [ParticipantSummary]) -> String {
        let shown = participants.prefix(participantsShown).map { participant in
            let sensors = SensorSummary(averageHR: participant.averageHR, maxHR: participant.maxHR,
                                        averagePower: participant.averagePower)
            return ([VisibleText.escape(participant.name)] + sensorText(sensors)).joined(separator: " ")
        }
        let more = participants.count > participantsShown ? ", \(participants.count - participantsShown) more" : ""
        return "class of \(participants.count): " + shown.joined(separator: ", ") + more
    }

    /// `hr 142 avg 171 max`, `205 W avg`: what the sensors gave.
    static func sensorText(_ sensors: SensorSummary) -> [String] {
        var parts: [String] = []
        if let max = sensors.maxHR {
            parts.append("hr " + (sensors.averageHR.map { "\(Int($0.rounded())) avg " } ?? "") + "\(max) max")
        }
        if let power = sensors.averagePower { parts.append("\(Int(power.rounded())) W avg") }
        return parts
    }

    /// `week of 2026-11-16   3 sessions   40:00 work`
    static func week(_ week: HistoryReport.Week) -> String {
        "week of \(week.start)  \(Padding.column(String(week.sessions), 3, right: true)) session\(week.sessions == 1 ? " " : "s")"
            + "  \(Padding.column(TimeText.clock(week.workSeconds), 8, right: true)) work"
    }
}
