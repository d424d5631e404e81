import Display
import History
import IntervalEngine
import WorkoutValues

/// `workout history stats` as text: totals and streaks, the calendar, a bar of work time
/// per week, and a table of routines with their scores. Names from the history are
/// escaped (`VisibleText`): a hand-edited line must not drive the terminal.
public enum HistoryStatsPage {
    /// Columns of the longest weekly bar.
    static let barWidth = 30
    static let nameWidth = 20

    public static func lines(_ stats: HistoryStats, through last: LocalDay, weeks: Int, glyphs: Glyphs) -> [Line] {
        let weeks = max(1, weeks)
        let work = stats.workByDay
        let first = HistoryCalendar.firstDay(through: last, weeks: weeks)
        var lines: [Line] = [
            Line("\(count(stats.sessions, "session")), \(stats.completed) finished, "
                 + "\(TimeText.clock(stats.workSeconds)) of work in \(TimeText.clock(stats.elapsed))", "1"),
            Line("Streak: \(count(stats.currentStreak, "day")) (longest \(count(stats.longestStreak, "day")))"),
            Line(),
            Line("Last \(count(weeks, "week")), \(first.text) to \(last.text)", "1"),
        ]
        lines += HistoryCalendar.lines(work: work, through: last, weeks: weeks, glyphs: glyphs)
        lines += [Line(), Line("Work per week", "1")]
        lines += weekBars(work: work, first: first, weeks: weeks, glyphs: glyphs)
        if !stats.routines.isEmpty {
            lines += [Line()] + routineTable(stats.routines)
        }
        if stats.spedUpLeftOut > 0 {
            lines += [Line(), Line("\(count(stats.spedUpLeftOut, "sped-up session")) left out (--all counts them)", "2")]
        }
        return lines
    }

    /// One bar per week, oldest first, scaled to the busiest week.
    static func weekBars(work: [LocalDay: Double], first: LocalDay, weeks: Int, glyphs: Glyphs) -> [Line] {
        let totals = (0..<weeks).map { week in
            (0..<7).reduce(0.0) { $0 + (work[first.advanced(by: 7 * week + $1)] ?? 0) }
        }
        let most = totals.max() ?? 0
        return totals.enumerated().map { week, seconds in
            Line("  " + first.advanced(by: 7 * week).text + "  ")
                + ScreenLayout.bar(most > 0 ? seconds / most : 0, width: barWidth, sgr: "32", glyphs: glyphs)
                + Line("  " + padded(TimeText.clock(seconds), 8, right: true))
        }
    }

    /// Sessions, finished, work and last day per routine; each score below its routine.
    static func routineTable(_ routines: [HistoryStats.RoutineFigures]) -> [Line] {
        var lines = [Line(padded("Routine", nameWidth) + "  Sessions  Finished        Work  Last", "1")]
        for routine in routines {
            lines.append(Line(padded(VisibleText.escape(routine.program), nameWidth) + "  "
                              + padded(String(routine.sessions), 8, right: true) + "  "
                              + padded(String(routine.completed), 8, right: true) + "  "
                              + padded(TimeText.clock(routine.workSeconds), 10, right: true) + "  " + routine.last.text))
            for score in routine.scores {
                let best = Score(name: score.name, value: score.best).valueText
                let latest = Score(name: score.name, value: score.latest).valueText
                lines.append(Line("  \(VisibleText.escape(score.name)): best \(best)"
                                  + "\(score.lowerIsBetter ? " (lowest)" : ""), latest \(latest), "
                                  + "\(count(score.count, "session"))", "2"))
            }
        }
        return lines
    }

    /// `3 sessions`, `1 day`.
    public static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// Cut (with an ellipsis) or filled to `width` characters.
    public static func padded(_ text: String, _ width: Int, right: Bool = false) -> String {
        Padding.column(Line(text).truncated(to: width).text, width, right: right)
    }
}
