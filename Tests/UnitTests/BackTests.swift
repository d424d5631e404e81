import TestSupport
import XCTest
@testable import IntervalEngine

/// The `b` key: back to the start of the segment, or to the previous one early on.
final class BackTests: XCTestCase {
    let three = "return workout { name = \"Three\", work(20, \"A\"), rest(10, \"B\"), work(20, \"C\") }"

    func testBackRestartsTheSegmentAndTheRestMovesLater() throws {
        let harness = try Harness(three)
        harness.session.start()
        harness.clock.advance(by: 12)
        harness.session.back()
        harness.clock.run()
        XCTAssertEqual(harness.trace, [
            "0 workout_start Three 3", "0 segment_start 1 A", "12 segment_start 1 A",
            "32 segment_end 1", "32 segment_start 2 B", "42 segment_end 2", "42 segment_start 3 C",
            "62 segment_end 3", "62 workout_end true 62 3",
        ])
        XCTAssertEqual(harness.session.summary?.segmentsDone, 3)
        XCTAssertEqual(harness.session.summary?.workSeconds, 52, "the abandoned 12 s were work too")
    }

    func testBackEarlyInASegmentGoesToThePreviousOneAndUncountsIt() throws {
        let harness = try Harness(three)
        harness.session.start()
        harness.clock.advance(by: 5)
        harness.session.skip()
        harness.clock.advance(by: 1)
        harness.session.back()
        XCTAssertEqual(harness.session.segment.index, 1)
        harness.clock.run()
        XCTAssertEqual(Array(harness.trace.prefix(6)), [
            "0 workout_start Three 3", "0 segment_start 1 A", "5 segment_end 1 skipped", "5 segment_start 2 B",
            "6 segment_start 1 A", "26 segment_end 1",
        ])
        XCTAssertEqual(harness.session.summary?.segmentsDone, 3)
        XCTAssertEqual(harness.session.summary?.segmentsSkipped, 0, "the skip was undone by going back")
    }

    func testBackPressedTwiceQuicklyKeepsGoingBack() throws {
        let harness = try Harness(three)
        harness.session.start()
        harness.clock.advance(by: 20)
        harness.clock.advance(by: 10.5)
        XCTAssertEqual(harness.session.segment.index, 3)
        harness.session.back()
        harness.session.back()
        XCTAssertEqual(harness.session.segment.index, 1)
        XCTAssertEqual(harness.session.remainingInSegment, 20)
    }

    func testBackInTheFirstSegmentRestartsIt() throws {
        let harness = try Harness(three)
        harness.session.start()
        harness.clock.advance(by: 1)
        harness.session.back()
        XCTAssertEqual(harness.session.segment.index, 1)
        XCTAssertEqual(harness.session.remainingInSegment, 20)
    }

    func testBackWhilePausedStaysPausedAtTheStart() throws {
        let harness = try Harness(three)
        harness.session.start()
        harness.clock.advance(by: 8)
        harness.session.pause()
        harness.clock.advance(by: 30)
        harness.session.back()
        XCTAssertEqual(harness.session.state, .paused)
        XCTAssertEqual(harness.session.remainingInSegment, 20)
        XCTAssertEqual(harness.clock.pendingCount, 0, "no timers run while paused")
        harness.session.resume()
        harness.clock.run()
        XCTAssertEqual(harness.trace.last, "88 workout_end true 88 3")
    }

    func testBackRunsTheSegmentsHooksAgain() throws {
        let harness = try Harness("""
            return workout { name = "Hooks",
              work(20, "A"),
              on_segment_start = function(seg) print("start " .. seg.name) end }
            """)
        harness.session.start()
        harness.clock.advance(by: 5)
        harness.session.back()
        harness.session.stop()
        XCTAssertEqual(harness.trace.filter { $0.contains("log") }, ["0 log start A", "5 log start A"])
    }
}
