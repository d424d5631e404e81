import Foundation
import PastSessions
import WorkoutValues
import XCTest
@testable import History
@testable import IntervalEngine

/// A history entry for tests: `started` as an internet date-time, 100 s long.
func historyEntry(_ program: String, started: String, completed: Bool = true, work: Double = 60,
                  speed: Double = 1, scores: [Score] = []) -> HistoryEntry {
    let date = Timestamp.date(from: started)!
    return HistoryEntry(program: program, file: "/r/\(program).lua", sha256: String(repeating: "0", count: 64),
                        started: date, ended: date, completed: completed, elapsed: 100,
                        segmentsDone: 3, segments: 4, workSeconds: work, speed: speed, scores: scores)
}

/// Runs `body` with the C library's local time zone set to `zone` (as `TZ=zone` would
/// for the binary), then puts the old one back.
func withTimeZone<T>(_ zone: String, _ body: () throws -> T) rethrows -> T {
    let saved = getenv("TZ").map { String(cString: $0) }
    setenv("TZ", zone, 1)
    tzset()
    defer {
        if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
        tzset()
    }
    return try body()
}
