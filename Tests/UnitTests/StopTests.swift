import TestSupport
import XCTest
@testable import IntervalEngine
@testable import LuaBridge

/// Quitting mid-segment: the work done in the segment under way counts in the summary
/// (and so in the history's `work_seconds`), paused or not.
final class StopTests: XCTestCase {
    func testWorkDoneInTheUnfinishedSegmentCounts() throws {
        let harness = try Harness("return workout { name = \"T\", countdown = 0, rest(5), work(60), rest(30) }")
        harness.session.start()
        harness.clock.advance(by: 13)
        harness.session.apply(.quit)
        let summary = try XCTUnwrap(harness.session.summary)
        XCTAssertFalse(summary.completed)
        XCTAssertEqual(summary.workSeconds, 8)
        XCTAssertEqual(summary.elapsed, 13)
    }

    func testAPauseIsNotWork() throws {
        let harness = try Harness("return workout { name = \"T\", countdown = 0, work(60), rest(30) }")
        harness.session.start()
        harness.clock.advance(by: 8)
        harness.session.apply(.pause)
        harness.clock.advance(by: 100)
        harness.session.apply(.quit)
        XCTAssertEqual(harness.session.summary?.workSeconds, 8)
    }

    /// A finished segment is not counted twice; a rest under way is not work.
    func testQuittingInARestCountsOnlyTheWorkBefore() throws {
        let harness = try Harness("return workout { name = \"T\", countdown = 0, work(10), rest(30) }")
        harness.session.start()
        harness.clock.advance(by: 25)
        harness.session.apply(.quit)
        XCTAssertEqual(harness.session.summary?.workSeconds, 10)
    }

    /// The demo, quit 8 s into its first work segment: 8 s of work, and the summary is the
    /// only word on how it stopped.
    func testTheDemoQuitInItsFirstWorkSegment() throws {
        let demo = try RoutineLoader.load(path: packageRoot.appendingPathComponent("programs/demo.lua").path)
        let harness = Harness(demo)
        harness.session.start()
        let start = try XCTUnwrap(demo.timeline.segments.first { $0.kind == "work" }).start
        harness.clock.advance(by: start + 3)
        harness.session.apply(.quit)
        XCTAssertEqual(harness.session.summary?.workSeconds, 3)
        XCTAssertFalse(harness.trace.contains { $0.contains("log Stopped") }, "\(harness.trace)")
    }

    /// A quit the session hears in the middle of a boundary (a listener's, as standard
    /// output gone gives) ends it there: nothing of the boundary's course follows
    /// `workout_end`, neither a hook nor the next segment.
    func testAQuitHeardInABoundaryLeavesNothingOfItAfterTheEnd() throws {
        let source = """
            return workout { name = "T", countdown = 0,
              on_segment_end = function(seg) print("ended " .. seg.index) end,
              on_segment_start = function(seg) print("started " .. seg.index) end,
              work(10), rest(10) }
            """
        let ending = try Harness(source)
        ending.session.subscribe { [weak session = ending.session] event in
            if case .segmentEnd = event.kind { session?.apply(.quit) }
        }
        ending.run()
        XCTAssertEqual(ending.trace, ["0 workout_start T 2", "0 segment_start 1 Work", "0 log started 1",
                                      "10 segment_end 1", "10 workout_end false 10 1"])

        let starting = try Harness(source)
        starting.session.subscribe { [weak session = starting.session] event in
            if case .workoutStart = event.kind { session?.apply(.quit) }
        }
        starting.run()
        XCTAssertEqual(starting.trace, ["0 workout_start T 2", "0 workout_end false 0 0"])
    }
}
