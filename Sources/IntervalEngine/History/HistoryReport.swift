import Foundation

/// What `workout history` shows: the latest sessions, totals for each of the last weeks
/// (Monday to Sunday in the local calendar) and the current streak of training days.
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

    public init(entries: [HistoryEntry], limit: Int, weeks weekCount: Int = 4, now: Date = Date(),
                calendar: Calendar = HistoryReport.calendar()) {
        var tally = Tally(limit: limit, weeks: weekCount, now: now, calendar: calendar)
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
        private let now: Date
        private let calendar: Calendar
        /// The latest entries, a ring once full: `next` is where the oldest is.
        private var latest: [HistoryEntry] = []
        private var next = 0
        private var weeks: [(start: Date, end: Date, week: Week)] = []
        private var trainingDays: Set<Date> = []
        /// Day starts by quarter hour of the entry's time: the calendar's arithmetic was the
        /// slow part, and a day always begins on a quarter hour (every UTC offset is a whole
        /// number of quarter hours), so all of a quarter hour falls on one day.
        private var days: [Int: Date] = [:]

        public init(limit: Int, weeks weekCount: Int = 4, now: Date = Date(), calendar: Calendar = HistoryReport.calendar()) {
            self.limit = max(0, limit)
            self.now = now
            self.calendar = calendar
            let thisWeek = calendar.dateInterval(of: .weekOfYear, for: now)?.start ?? now
            for back in 0..<max(0, weekCount) {
                guard let start = calendar.date(byAdding: .weekOfYear, value: -back, to: thisWeek),
                      let end = calendar.date(byAdding: .weekOfYear, value: 1, to: start) else { continue }
                weeks.append((start, end, Week(start: HistoryReport.day(start, calendar), sessions: 0, workSeconds: 0, elapsed: 0)))
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
            guard let date = Timestamp.date(from: entry.started) else { return }
            if let position = weeks.firstIndex(where: { $0.start <= date && date < $0.end }) {
                weeks[position].week.sessions += 1
                weeks[position].week.workSeconds += entry.workSeconds
                weeks[position].week.elapsed += entry.elapsed
            }
            guard entry.completed || entry.workSeconds > 0 else { return }
            let quarter = Int((date.timeIntervalSince1970 / 900).rounded(.down))
            if let start = days[quarter] {
                trainingDays.insert(start)
            } else {
                let start = calendar.startOfDay(for: date)
                if days.count >= 10_000 { days.removeAll(keepingCapacity: true) }
                days[quarter] = start
                trainingDays.insert(start)
            }
        }

        public var report: HistoryReport {
            let recent = Array((latest[next...] + latest[..<next]).reversed())
            var day = calendar.startOfDay(for: now)
            if !trainingDays.contains(day), let yesterday = calendar.date(byAdding: .day, value: -1, to: day) {
                day = yesterday
            }
            var streak = 0
            while trainingDays.contains(day), let before = calendar.date(byAdding: .day, value: -1, to: day) {
                streak += 1
                day = before
            }
            return HistoryReport(recent: recent, weeks: weeks.map(\.week), streakDays: streak)
        }
    }

    /// The local calendar with weeks starting on Monday (ISO 8601).
    public static func calendar(timeZone: TimeZone = .current) -> Calendar {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = timeZone
        return calendar
    }

    static func day(_ date: Date, _ calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
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
