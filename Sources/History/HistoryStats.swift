import Foundation
import IntervalEngine
import PastSessions
import WorkoutValues

/// What `workout history stats` computes: totals, streaks, figures per routine (with each
/// score's best) and per day, over the sessions a filter picks. Days are local dates
/// (`LocalDay`); sped-up sessions are left out unless the filter includes them.
public struct HistoryStats {
    public struct Filter: Sendable {
        /// Local dates, both included.
        public var since: LocalDay?
        public var until: LocalDay?
        /// A routine's name (`program`), exactly.
        public var routine: String?
        public var includeSpedUp: Bool

        public init(since: LocalDay? = nil, until: LocalDay? = nil, routine: String? = nil, includeSpedUp: Bool = false) {
            self.since = since
            self.until = until
            self.routine = routine
            self.includeSpedUp = includeSpedUp
        }
    }

    public struct ScoreFigures: Equatable, Sendable {
        public var name: String
        /// The highest value, or the lowest for a score recorded with `better = "lower"`.
        public var best: Double
        /// The value of the latest session that recorded it.
        public var latest: Double
        /// Sessions that recorded it.
        public var count: Int
        /// As the latest session recorded it.
        public var lowerIsBetter: Bool
    }

    public struct RoutineFigures: Equatable, Sendable {
        public var program: String
        public var sessions = 0
        public var completed = 0
        public var workSeconds = 0.0
        /// The day of its latest session.
        public var last: LocalDay
        /// In the order the names were first recorded.
        public var scores: [ScoreFigures] = []
    }

    public struct DayFigures: Equatable, Sendable {
        public var day: LocalDay
        public var sessions: Int
        public var workSeconds: Double
    }

    public var sessions = 0
    public var completed = 0
    public var workSeconds = 0.0
    public var elapsed = 0.0
    public var currentStreak = 0
    public var longestStreak = 0
    /// Most sessions first, then by name.
    public var routines: [RoutineFigures] = []
    /// The days with a session, oldest first.
    public var days: [DayFigures] = []
    /// Sped-up sessions the filter would otherwise have counted.
    public var spedUpLeftOut = 0

    public init(entries: [HistoryEntry], filter: Filter = Filter(), today: LocalDay = LocalDay(Date())) {
        var routines: [String: RoutineFigures] = [:]
        var days: [LocalDay: DayFigures] = [:]
        var trainingDays: Set<LocalDay> = []
        // Per routine and score name: every value's extremes, the direction last seen.
        var scores: [String: [String: (figures: ScoreFigures, highest: Double, lowest: Double)]] = [:]
        var scoreOrder: [String: [String]] = [:]
        for entry in entries {
            if let routine = filter.routine, entry.program != routine { continue }
            let day = LocalDay(entry.started)
            if let since = filter.since, day < since { continue }
            if let until = filter.until, day > until { continue }
            if entry.isSpedUp && !filter.includeSpedUp {
                spedUpLeftOut += 1
                continue
            }
            sessions += 1
            completed += entry.completed ? 1 : 0
            workSeconds += entry.workSeconds
            elapsed += entry.elapsed
            if entry.didTrain { trainingDays.insert(day) }
            days[day, default: DayFigures(day: day, sessions: 0, workSeconds: 0)].sessions += 1
            days[day]?.workSeconds += entry.workSeconds
            var routine = routines[entry.program] ?? RoutineFigures(program: entry.program, last: day)
            routine.sessions += 1
            routine.completed += entry.completed ? 1 : 0
            routine.workSeconds += entry.workSeconds
            routine.last = max(routine.last, day)
            routines[entry.program] = routine
            for score in entry.scores {
                if let seen = scores[entry.program]?[score.name] {
                    scores[entry.program]?[score.name] = (
                        ScoreFigures(name: score.name, best: 0, latest: score.value, count: seen.figures.count + 1,
                                     lowerIsBetter: score.lowerIsBetter),
                        max(seen.highest, score.value), min(seen.lowest, score.value))
                } else {
                    scores[entry.program, default: [:]][score.name] = (
                        ScoreFigures(name: score.name, best: 0, latest: score.value, count: 1,
                                     lowerIsBetter: score.lowerIsBetter), score.value, score.value)
                    scoreOrder[entry.program, default: []].append(score.name)
                }
            }
        }
        for (program, names) in scoreOrder {
            routines[program]?.scores = names.compactMap { name in
                guard let seen = scores[program]?[name] else { return nil }
                var figures = seen.figures
                figures.best = figures.lowerIsBetter ? seen.lowest : seen.highest
                return figures
            }
        }
        self.routines = routines.values.sorted {
            $0.sessions != $1.sessions ? $0.sessions > $1.sessions : $0.program < $1.program
        }
        self.days = days.values.sorted { $0.day < $1.day }
        currentStreak = Streak.current(trainingDays, today: today)
        longestStreak = Streak.longest(trainingDays)
    }

    /// Work seconds per day, for the calendar.
    public var workByDay: [LocalDay: Double] {
        Dictionary(uniqueKeysWithValues: days.map { ($0.day, $0.workSeconds) })
    }

    public var json: JSONValue {
        func seconds(_ value: Double) -> JSONValue { .number(Number.rounded(value, places: 3)) }
        return .object([
            ("sessions", .integer(sessions)), ("completed", .integer(completed)),
            ("work_seconds", seconds(workSeconds)), ("elapsed", seconds(elapsed)),
            ("streak", .object([("current", .integer(currentStreak)), ("longest", .integer(longestStreak))])),
            ("routines", .array(routines.map { routine in
                .object([
                    ("program", .string(routine.program)), ("sessions", .integer(routine.sessions)),
                    ("completed", .integer(routine.completed)), ("work_seconds", seconds(routine.workSeconds)),
                    ("last", .string(routine.last.text)),
                    ("scores", .object(routine.scores.map { score in
                        (score.name, .object([("best", .number(score.best)), ("latest", .number(score.latest)),
                                              ("count", .integer(score.count)),
                                              ("better", .string(score.lowerIsBetter ? "lower" : "higher"))]))
                    })),
                ])
            })),
            ("days", .array(days.map { day in
                .object([("date", .string(day.day.text)), ("sessions", .integer(day.sessions)),
                         ("work_seconds", seconds(day.workSeconds))])
            })),
            ("sped_up_left_out", .integer(spedUpLeftOut)),
        ])
    }
}
