import Foundation
import WorkoutValues

/// ISO 8601 timestamps with the local offset (`2026-11-21T18:02:03+01:00`), by the C
/// library rather than `ISO8601DateFormatter`: that formatter loads ICU's time-zone data,
/// which cost every finished session about 6 MB of peak memory and 7 ms (BENCHMARKS.md).
public enum Timestamp {
    /// `date` in the local time zone (the C library's, from `TZ` or `/etc/localtime`).
    public static func local(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return utc(date, offset: 0) }
        return text(parts, offset: parts.tm_gmtoff)
    }

    /// `date` at a fixed offset from UTC, in seconds (tests, and the fallback).
    public static func utc(_ date: Date, offset: Int) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down)) + time_t(offset)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return text(parts, offset: offset)
    }

    /// Reads `YYYY-MM-DDTHH:MM:SS` followed by `Z` or `±HH:MM` (what `local` writes, and
    /// what other tools write for an internet date-time without fractions); nil otherwise.
    public static func date(from text: String) -> Date? {
        var text = text
        return text.withUTF8 { date(utf8: $0) }
    }

    static func date(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.count == 20 || bytes.count == 25 else { return nil }
        func number(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for byte in bytes[start..<start + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func at(_ index: Int, _ character: Unicode.Scalar) -> Bool { bytes[index] == UInt8(ascii: character) }
        guard at(4, "-"), at(7, "-"), at(10, "T") || at(10, "t"), at(13, ":"), at(16, ":"),
              let year = number(0, 4), let month = number(5, 2), let dayOfMonth = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              (1...12).contains(month), (1...31).contains(dayOfMonth), hour < 24, minute < 60, second < 61
        else { return nil }
        var offset = 0
        if bytes.count == 20 {
            guard at(19, "Z") || at(19, "z") else { return nil }
        } else {
            guard at(19, "+") || at(19, "-"), at(22, ":"), let hours = number(20, 2), let minutes = number(23, 2),
                  hours < 24, minutes < 60 else { return nil }
            offset = (hours * 3600 + minutes * 60) * (at(19, "-") ? -1 : 1)
        }
        // Days by the calendar's arithmetic rather than `timegm`, which was most of the time
        // of reading a history line; a date that does not exist (31 February) is refused.
        let day = LocalDay(year: year, month: month, day: dayOfMonth)
        guard day.date == (year, month, dayOfMonth) else { return nil }
        let seconds = day.number * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds - offset))
    }

    private static func text(_ parts: tm, offset: Int) -> String {
        let sign = offset < 0 ? "-" : "+"
        let minutes = abs(offset) / 60
        return "\(Padding.zeros(Int(parts.tm_year) + 1900, 4))-\(Padding.zeros(Int(parts.tm_mon) + 1))-\(Padding.zeros(Int(parts.tm_mday)))"
            + "T\(Padding.zeros(Int(parts.tm_hour))):\(Padding.zeros(Int(parts.tm_min))):\(Padding.zeros(Int(parts.tm_sec)))"
            + "\(sign)\(Padding.zeros(minutes / 60)):\(Padding.zeros(minutes % 60))"
    }
}
