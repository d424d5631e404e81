import Foundation
import IntervalEngine
import PastSessions
import WorkoutValues

/// What `workout history` shows: the latest sessions, totals for each of the last weeks
/// (Monday to Sunday in the local calendar) and the current streak of training days.
/// Sped-up sessions are listed but left out of the totals and the streak unless
/// `includeSpedUp`.
public struct HistoryReport {
    public struct Week: Equatable, Sendable {
        /// The Monday the week starts on, `2026-11-16`.
        public var start: String
        public var sessions: Int
        public var workSeconds: Double
        public var elapsed: Double
    }

    /// Newest first.
    public var recent: [HistoryEntry]
    /// Newest first, the current week included even when empty.
    public var weeks: [Week]
    /// Consecutive days, ending today or yesterday, with a session that did some work
    /// (or finished).
    public var streakDays: Int

    public init(entries: [HistoryEntry], limit: Int, weeks weekCount: Int = 4, includeSpedUp: Bool = false,
                now: Date = Date()) {
        var tally = Tally(limit: limit, weeks: weekCount, includeSpedUp: includeSpedUp, now: now)
        for entry in entries { tally.add(entry) }
        self = tally.report
    }

    private init(recent: [HistoryEntry], weeks: [Week], streakDays: Int) {
        self.recent = recent
        self.weeks = weeks
        self.streakDays = streakDays
    }

    /// The report built one entry at a time, in file order, keeping only what it shows:
    /// the latest `limit` entries, a total per week and the set of training days. So a
    /// history of 500,000 sessions is read as it streams, in bounded memory.
    public struct Tally {
        private let limit: Int
        private let includeSpedUp: Bool
        private let today: LocalDay
        /// The latest entries, a ring once full: `next` is where the oldest is.
        private var latest: [HistoryEntry] = []
        private var next = 0
        private var weeks: [Week] = []
        private var trainingDays: Set<LocalDay> = []

        public init(limit: Int, weeks weekCount: Int = 4, includeSpedUp: Bool = false, now: Date = Date()) {
            self.limit = max(0, limit)
            self.includeSpedUp = includeSpedUp
            today = LocalDay(now)
            for back in 0..<max(0, weekCount) {
                let start = today.monday.advanced(by: -7 * back)
                weeks.append(Week(start: start.text, sessions: 0, workSeconds: 0, elapsed: 0))
            }
        }

        public mutating func add(_ entry: HistoryEntry) {
            if limit > 0 {
                if latest.count < limit {
                    latest.append(entry)
                } else {
                    latest[next] = entry
                    next = (next + 1) % limit
                }
            }
            guard includeSpedUp || !entry.isSpedUp else { return }
            let day = LocalDay(entry.started)
            let back = day.monday.distance(to: today.monday) / 7
            if weeks.indices.contains(back) {
                weeks[back].sessions += 1
                weeks[back].workSeconds += entry.workSeconds
                weeks[back].elapsed += entry.elapsed
            }
            if entry.didTrain { trainingDays.insert(day) }
        }

        public var report: HistoryReport {
            HistoryReport(recent: Array((latest[next...] + latest[..<next]).reversed()), weeks: weeks,
                          streakDays: Streak.current(trainingDays, today: today))
        }
    }

    public var json: JSONValue {
        .object([
            ("sessions", .array(recent.map(\.json))),
            ("weeks", .array(weeks.map { week in
                .object([("start", .string(week.start)), ("sessions", .integer(week.sessions)),
                         ("work_seconds", .number(Number.rounded(week.workSeconds, places: 3))),
                         ("elapsed", .number(Number.rounded(week.elapsed, places: 3)))])
            })),
            ("streak_days", .integer(streakDays)),
        ])
    }
}

/// Runs of consecutive training days.
public enum Streak {
    /// The run of days ending today, or yesterday when today has none yet (today may
    /// still come); 0 when neither has one.
    public static func current(_ days: Set<LocalDay>, today: LocalDay) -> Int {
        var day = days.contains(today) ? today : today.advanced(by: -1)
        var length = 0
        while days.contains(day) {
            length += 1
            day = day.advanced(by: -1)
        }
        return length
    }

    /// The longest run anywhere.
    public static func longest(_ days: Set<LocalDay>) -> Int {
        var longest = 0
        var length = 0
        var previous: LocalDay?
        for day in days.sorted() {
            length = previous.map { $0.advanced(by: 1) == day } == true ? length + 1 : 1
            longest = max(longest, length)
            previous = day
        }
        return longest
    }
}
