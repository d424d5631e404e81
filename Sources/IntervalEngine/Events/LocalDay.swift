import Foundation
import WorkoutValues

/// A day of the local calendar, counted from 1970-01-01. The history's days, weeks and
/// streaks are counted in these, never in seconds: a day across a daylight-saving change
/// has 23 or 25 hours, but it is still one day after the one before. The date of an
/// instant comes from the C library (`localtime_r`, following `TZ` or /etc/localtime),
/// like the timestamps themselves (`Timestamp`), so no ICU calendar is loaded.
public struct LocalDay: Hashable, Comparable, Sendable, Strideable {
    /// Days since 1970-01-01 (negative before).
    public var number: Int

    public init(number: Int) {
        self.number = number
    }

    /// The local date `instant` falls on.
    public init(_ instant: Date) {
        var seconds = time_t(instant.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        if localtime_r(&seconds, &parts) == nil { gmtime_r(&seconds, &parts) }
        self.init(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
    }

    /// The day of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    public init(year: Int, month: Int, day: Int) {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        number = era * 146_097 + dayOfEra - 719_468
    }

    /// `2026-03-29`; nil for anything else, or a date that does not exist.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        self.init(year: year, month: month, day: day)
        guard self.date == (year, month, day) else { return nil }  // 31 February
    }

    /// Year, month (1–12) and day (1–31) (`civil_from_days`).
    public var date: (year: Int, month: Int, day: Int) {
        let z = number + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// 0 for Monday … 6 for Sunday (ISO 8601 weeks start on Monday).
    public var weekday: Int { ((number % 7) + 7 + 3) % 7 }

    /// The Monday of this day's week.
    public var monday: LocalDay { LocalDay(number: number - weekday) }

    /// `2026-03-29`.
    public var text: String {
        let (year, month, day) = date
        return "\(Padding.zeros(year, 4))-\(Padding.zeros(month))-\(Padding.zeros(day))"
    }

    public static func today(_ now: Date = Date()) -> LocalDay { LocalDay(now) }

    public static func < (lhs: LocalDay, rhs: LocalDay) -> Bool { lhs.number < rhs.number }
    public func distance(to other: LocalDay) -> Int { other.number - number }
    public func advanced(by days: Int) -> LocalDay { LocalDay(number: number + days) }

}
