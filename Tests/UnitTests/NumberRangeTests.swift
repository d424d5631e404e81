import Foundation
import PastSessions
import Platform
import WorkoutValues
import XCTest
@testable import History
@testable import IntervalEngine

/// Numbers from the user or the disk never trap: every Double-to-integer conversion is
/// clamped or range-checked, a history line with an absurd number is damaged, and JSON
/// never holds inf or NaN.
final class NumberRangeTests: XCTestCase {
    func testConversionsOfAnyDoubleAreClamped() {
        XCTAssertEqual(Number.whole(1e19), Int.max)
        XCTAssertEqual(Number.whole(-1e300), Int.min)
        XCTAssertEqual(Number.whole(.nan), 0)
        XCTAssertEqual(Number.whole(.infinity), Int.max)
        XCTAssertEqual(Number.whole(2.9), 2)
        XCTAssertEqual(TimeText.clock(.nan), "0:00")
        XCTAssertEqual(TimeText.clock(-5), "0:00")
        XCTAssertEqual(TimeText.clock(1e19), TimeText.hms(Int.max))
        XCTAssertFalse(TimeText.clock(.infinity).isEmpty)
        XCTAssertEqual(TimeText.stamp(.nan), "0:00.0")
        XCTAssertFalse(TimeText.stamp(1e300).isEmpty)
        XCTAssertGreaterThan(ShownTime(remaining: .infinity, tenths: true).tenths, 0)
        XCTAssertEqual(ShownTime(remaining: .nan, tenths: true).tenths, 0)
        XCTAssertFalse(ShownTime(remaining: 5, tenths: true).elapsedText(duration: 1e300).isEmpty)
        XCTAssertEqual(nanoseconds(1e300), UInt64.max)
        XCTAssertEqual(nanoseconds(-1), 0)
        XCTAssertEqual(nanoseconds(.nan), 0)
    }

    func testNumbersAreWrittenInWordsAJSONReaderTakes() {
        XCTAssertEqual(Number.format(1e308), "1e+308")
        XCTAssertEqual(Number.format(1e-10), "1e-10")
        XCTAssertEqual(Number.format(0.000071), "0.000071")
        XCTAssertEqual(JSONValue.number(.infinity).text, "null")
        XCTAssertEqual(JSONValue.number(-.infinity).text, "null")
        XCTAssertEqual(JSONValue.number(.nan).text, "null")
        let text = JSONValue.object([("a", .number(1e308)), ("b", .number(.nan))]).text
        XCTAssertEqual(text, #"{"a":1e+308,"b":null}"#)
        XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(text.utf8)))
    }

    /// A 24-hour segment at the slowest speed, and far beyond it, schedules and cancels
    /// without trapping (the boot-time sentinel too).
    func testTheRunLoopSchedulerTakesAnyTimeAtAnySpeed() {
        // The scheduler lives on the main thread, where XCTest runs the test.
        MainActor.assumeIsolated {
            for speed in [1e-10, RunLoopScheduler.speeds.lowerBound, 1, RunLoopScheduler.speeds.upperBound, 1e300] {
                let scheduler = RunLoopScheduler(speed: speed)
                for time in [86_400.0, 1e300, .infinity] {
                    let token = scheduler.schedule(at: time) { _ in XCTFail("fired") }
                    XCTAssertGreaterThan(scheduler.deadline(for: time), 0)
                    scheduler.cancel(token)
                }
                XCTAssertEqual(scheduler.pendingCount, 0)
            }
            XCTAssertFalse(RunLoopScheduler.speeds.contains(1e-10))
            XCTAssertTrue(RunLoopScheduler.speeds.contains(0.01))
        }
    }

    private let head = #"{"program":"x","file":"/x","sha256":"","started":"2026-11-20T10:00:00Z","ended":"2026-11-20T10:00:00Z","completed":true,"#

    private func line(elapsed: String = "60", done: String = "3", segments: String = "4", work: String = "20") -> String {
        head + #""elapsed":\#(elapsed),"segments_done":\#(done),"segments":\#(segments),"work_seconds":\#(work)}"#
    }

    func testAHistoryLineWithANumberOutOfRangeIsDamaged() {
        XCTAssertNotNil(HistoryEntry(line: line()))
        XCTAssertNotNil(HistoryEntry(line: line(elapsed: "1", done: "1", segments: "0", work: "0")), "1 and 0 are numbers, not booleans")
        XCTAssertNotNil(HistoryEntry(line: line(elapsed: "1e9")))
        for bad in [line(elapsed: "1e19"), line(elapsed: "1e400"), line(elapsed: "-1"), line(elapsed: "true"),
                    line(elapsed: "\"60\""), line(work: "1e308"), line(work: "-0.5"), line(done: "1.5"),
                    line(done: "-1"), line(segments: "1e19"), line(segments: "9223372036854775808"), line(done: "false")] {
            XCTAssertNil(HistoryEntry(line: bad), bad)
        }
    }

    /// However many sessions of the largest size the file holds, the report's JSON has
    /// only finite numbers.
    func testTheHistoryReportStaysFinite() throws {
        let entry = try XCTUnwrap(HistoryEntry(line: line(elapsed: "1e9", work: "1e9")))
        let report = HistoryReport(entries: Array(repeating: entry, count: 10_000), limit: 5,
                                   now: try XCTUnwrap(Timestamp.date(from: "2026-11-21T10:00:00Z")))
        let text = report.json.text
        XCTAssertFalse(text.contains("inf") || text.contains("nan") || text.contains("null"), text)
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(text.utf8)))
    }
}
