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
        recent = Array(entries.suffix(max(0, limit)).reversed())
        let dated = entries.compactMap { entry in Timestamp.date(from: entry.started).map { ($0, entry) } }
        var weeks: [Week] = []
        let thisWeek = calendar.dateInterval(of: .weekOfYear, for: now)?.start ?? now
        for back in 0..<max(0, weekCount) {
            guard let start = calendar.date(byAdding: .weekOfYear, value: -back, to: thisWeek),
                  let end = calendar.date(byAdding: .weekOfYear, value: 1, to: start) else { continue }
            let inWeek = dated.filter { $0.0 >= start && $0.0 < end }.map(\.1)
            weeks.append(Week(start: HistoryReport.day(start, calendar), sessions: inWeek.count,
                              workSeconds: inWeek.reduce(0) { $0 + $1.workSeconds },
                              elapsed: inWeek.reduce(0) { $0 + $1.elapsed }))
        }
        self.weeks = weeks
        let trainingDays = Set(dated.filter { $0.1.completed || $0.1.workSeconds > 0 }
            .map { calendar.startOfDay(for: $0.0) })
        var day = calendar.startOfDay(for: now)
        if !trainingDays.contains(day), let yesterday = calendar.date(byAdding: .day, value: -1, to: day) {
            day = yesterday
        }
        var streak = 0
        while trainingDays.contains(day), let before = calendar.date(byAdding: .day, value: -1, to: day) {
            streak += 1
            day = before
        }
        streakDays = streak
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
