import Foundation

/// The athlete's date, which the calendar's days are: the local one of the time zone the
/// system gives (`TZ`), not UTC's: at 00:30 in Auckland it is already tomorrow there.
public enum LocalDay {
    /// `2026-11-28` for `instant` in `zone`.
    public static func date(at instant: Date = Date(), in zone: TimeZone = .current) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: instant)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
