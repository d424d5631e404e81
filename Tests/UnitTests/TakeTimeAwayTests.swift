import TestSupport
import XCTest
@testable import IntervalEngine

/// `add` with a negative number of seconds takes time from the current segment only: at
/// most it ends that segment, counted as skipped, and the workout goes on.
final class TakeTimeAwayTests: XCTestCase {
    func testTakingADayAwayEndsOnlyTheCurrentSegmentAsSkipped() throws {
        let harness = try Harness("return workout { name = \"T\", countdown = 0, work(60), rest(30), work(45) }")
        harness.session.start()
        harness.clock.advance(by: 10)
        harness.session.apply(.add(seconds: -86400))
        harness.clock.run()
        XCTAssertEqual(harness.trace.filter { !$0.contains("alert") && !$0.contains(" bell") }, [
            "0 workout_start T 3",
            "0 segment_start 1 Work",
            "10 segment_end 1 skipped",
            "10 segment_start 2 Rest",
            "40 segment_end 2",
            "40 segment_start 3 Work",
            "85 segment_end 3",
            "85 workout_end true 85 3",
        ])
    }

    func testTakingSomeTimeAwayShortensTheSegment() throws {
        let harness = try Harness("return workout { name = \"T\", countdown = 0, work(60), rest(30) }")
        harness.session.start()
        harness.clock.advance(by: 10)
        harness.session.apply(.add(seconds: -20))
        harness.clock.run()
        XCTAssertTrue(harness.trace.contains("40 segment_end 1"), "\(harness.trace)")
        XCTAssertTrue(harness.trace.contains("70 workout_end true 70 2"), "\(harness.trace)")
    }

    /// On the last segment too: the workout ends with that segment skipped.
    func testTakingADayAwayFromTheLastSegmentSkipsIt() throws {
        let harness = try Harness("return workout { name = \"T\", countdown = 0, work(60) }")
        harness.session.start()
        harness.clock.advance(by: 10)
        harness.session.apply(.add(seconds: -86400))
        harness.clock.run()
        XCTAssertTrue(harness.trace.contains("10 segment_end 1 skipped"), "\(harness.trace)")
        XCTAssertEqual(harness.session.progress().segmentsSkipped, 1)
    }
}
