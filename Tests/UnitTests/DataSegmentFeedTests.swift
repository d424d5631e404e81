import IntervalEngine
import TestSupport
import WorkoutValues
import XCTest

/// A routine made from data whose last step is a feed of segments still to come (a
/// follower's copy of a coach's `generate`): they join the timeline through the engine's
/// generator path, and a boundary that finds none yet waits for them.
final class DataSegmentFeedTests: XCTestCase {
    /// The warm-up ends at 4 s with nothing fed: the session waits between segments,
    /// planning nothing; told of segments at 5 s it enters the first at the boundary's
    /// moment (4 s, so it ends at 7 s), runs what came, waits again, and once the feed is
    /// closed finishes, completed, at the last boundary's moment.
    func testABoundaryWaitsForTheNextSegmentAndGoesOnAtItsMoment() {
        let feed = DataSegmentFeed()
        let routine = Routine.fromData(name: "Fed", fileName: "t", countdown: 0,
                                       segments: [DataSegment(kind: "warmup", name: "Warm", duration: 4)], more: feed)
        XCTAssertTrue(routine.timeline.isOpenEnded)
        let harness = Harness(routine)
        harness.session.start()
        harness.clock.advance(by: 5)
        XCTAssertTrue(harness.session.isAwaitingSegment)
        XCTAssertEqual(harness.clock.pendingCount, 0, "nothing planned while it waits")
        XCTAssertEqual(harness.trace.last, "4 segment_end 1")
        harness.session.segmentsArrived()
        XCTAssertTrue(harness.session.isAwaitingSegment, "nothing came: it still waits")
        feed.append([DataSegment(kind: "work", name: "Push", duration: 3, info: .object([("text", .string("Up"))])),
                     DataSegment(kind: "rest", name: "Ease", duration: 2)])
        harness.session.segmentsArrived()
        XCTAssertFalse(harness.session.isAwaitingSegment)
        XCTAssertEqual(harness.session.segment.name, "Push")
        XCTAssertEqual(harness.session.segmentDeadline, 7, accuracy: 1e-9, "entered at the boundary's moment")
        XCTAssertEqual(routine.infoJSON(for: harness.session.segment), .object([("text", .string("Up"))]))
        harness.clock.advance(by: 10)
        XCTAssertTrue(harness.session.isAwaitingSegment)
        feed.close()
        harness.session.segmentsArrived()
        XCTAssertEqual(harness.session.state, .finished)
        XCTAssertEqual(harness.trace.filter { !$0.contains(" log ") }, [
            "0 workout_start Fed open-ended", "0 segment_start 1 Warm", "4 segment_end 1", "5 segment_start 2 Push",
            "7 segment_end 2", "7 segment_start 3 Ease", "9 segment_end 3", "15 workout_end true 9 3",
        ])
        feed.append([DataSegment(kind: "work", name: "Late", duration: 1)])
        harness.session.segmentsArrived()
        XCTAssertEqual(harness.session.state, .finished, "nothing after the end")
    }

    /// Quitting while a boundary waits ends the workout there, not completed.
    func testQuittingWhileWaitingEndsNotCompleted() {
        let feed = DataSegmentFeed()
        let harness = Harness(Routine.fromData(name: "Fed", fileName: "t", countdown: 0,
                                               segments: [DataSegment(kind: "work", name: "One", duration: 2)], more: feed))
        harness.session.start()
        harness.clock.advance(by: 3)
        XCTAssertTrue(harness.session.isAwaitingSegment)
        harness.session.apply(.next)
        harness.session.apply(.quit)
        XCTAssertEqual(harness.session.state, .finished)
        XCTAssertFalse(harness.session.isAwaitingSegment)
        XCTAssertEqual(harness.trace.last, "3 workout_end false 3 1")
    }
}
