import ArgumentParser
import Display
import Foundation
import History
import IntervalEngine
import WorkoutValues

/// `workout history stats`: totals, streaks, the calendar, weekly bars and the routines.
struct HistoryStatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Totals, streaks, a calendar of the last weeks, and figures per routine with their best scores.")

    @OptionGroup var dates: HistoryDates

    @Option(help: ArgumentHelp("Only the sessions of this routine (its name, as the history shows it).", valueName: "name"))
    var routine: String?

    @Option(help: "Weeks the calendar and the weekly bars show.")
    var weeks = 26

    @Flag(help: "Count sped-up sessions (--speed other than 1) too.")
    var all = false

    @Flag(help: "Print one JSON object: totals, streak, routines, days.")
    var json = false

    func validate() throws {
        guard (1...520).contains(weeks) else { throw ValidationError("--weeks must be 1 to 520, got \(weeks)") }
    }

    func run() throws {
        let (file, contents) = try HistoryReading.read()
        if let routine, !contents.entries.isEmpty, !contents.entries.contains(where: { $0.program == routine }) {
            let names = Set(contents.entries.map(\.program)).sorted().map(VisibleText.escape)
            Output.error("workout: no session of \(VisibleText.escape(routine)) in the history "
                         + "(its routines: \(names.joined(separator: ", ")))")
            throw ExitCode.failure
        }
        let filter = HistoryStats.Filter(since: dates.sinceDay, until: dates.untilDay, routine: routine, includeSpedUp: all)
        let today = LocalDay(Date())
        let stats = HistoryStats(entries: contents.entries, filter: filter, today: today)
        if json {
            Output.line(stats.json.text)
            return
        }
        guard HistoryReading.hasSessions(file, count: contents.entries.count) else { return }
        var shown = weeks
        if Terminal.isInteractive {
            // Two columns a week after the weekday names: fit the terminal.
            shown = max(1, min(weeks, (Terminal.size.columns - 5) / 2))
        }
        let last = min(dates.untilDay ?? today, today)
        let color = Terminal.usesColor
        let output = BlockOutput()
        for line in HistoryStatsPage.lines(stats, through: last, weeks: shown, glyphs: Glyphs.forLocale(Terminal.environment)) {
            output.line(line.rendered(color: color))
        }
        output.flush()
    }
}

/// `--since DATE --until DATE`: local dates, both included.
struct HistoryDates: ParsableArguments {
    @Option(help: ArgumentHelp("Only sessions started on this local date (YYYY-MM-DD) or later.", valueName: "date"))
    var since: String?

    @Option(help: ArgumentHelp("Only sessions started on this local date (YYYY-MM-DD) or earlier.", valueName: "date"))
    var until: String?

    var sinceDay: LocalDay? { since.flatMap(LocalDay.init) }
    var untilDay: LocalDay? { until.flatMap(LocalDay.init) }

    func validate() throws {
        for (option, value) in [("--since", since), ("--until", until)] {
            if let value, LocalDay(value) == nil {
                throw ValidationError("\(option) must be a date as YYYY-MM-DD, got \(VisibleText.escape(value))")
            }
        }
        if let since = sinceDay, let until = untilDay, since > until {
            throw ValidationError("--since \(since.text) is after --until \(until.text)")
        }
    }
}
