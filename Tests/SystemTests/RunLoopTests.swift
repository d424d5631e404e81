import Foundation
import XCTest
@testable import IntervalEngine
@testable import LuaBridge

/// Real Foundation timers on the main run loop, with short segments and generous bounds.
final class RunLoopTests: XCTestCase {
    private static func runToEnd(_ session: Session, timeout: TimeInterval = 10) {
        var finished = false
        session.subscribe { event in
            guard case .workoutEnd = event.kind else { return }
            finished = true
            DispatchQueue.main.async {}
        }
        session.start()
        let giveUp = Date().addingTimeInterval(timeout)
        while !finished && Date() < giveUp {
            _ = RunLoop.main.run(mode: .default, before: giveUp)
        }
    }

    func testFiftyMillisecondSegmentsFireOnTimeInOrder() throws {
        // The scheduler lives on the main thread, where XCTest runs the test.
        try MainActor.assumeIsolated {
            let routine = try RoutineLoader.load(source: "return workout { name = \"Fast\", countdown = 0, rounds(4, { work(0.05), rest(0.05) }) }", fileName: "test.lua")
            let scheduler = RunLoopScheduler()
            var events: [Event] = []
            let session = Session(routine: routine, scheduler: scheduler, options: SessionOptions(bell: false)) {
                events.append($0)
            }
            let started = Date()
            Self.runToEnd(session)
            let wall = Date().timeIntervalSince(started)
            XCTAssertEqual(session.state, .finished)
            XCTAssertEqual(session.summary?.segmentsDone, 8)
            // The last boundary runs ahead of its moment by `runAhead`, and no further.
            XCTAssertGreaterThanOrEqual(wall, 0.39 - RunLoopScheduler.realRunAhead, "timers never fire early")
            XCTAssertLessThan(wall, 2, "generous bound for a loaded machine")
            let starts = events.filter { $0.name == "segment_start" }
            XCTAssertEqual(starts.count, 8)
            for (position, start) in starts.enumerated().dropFirst() {
                let fire = try XCTUnwrap(start.fire)
                XCTAssertEqual(fire.at, Double(position) * 0.05, accuracy: 1e-9, "fire dates come from the plan")
                XCTAssertGreaterThanOrEqual(fire.lateMs, -1)
                XCTAssertLessThan(fire.lateMs, 100)
            }
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }

    func testSpeedScalesWorkoutTime() throws {
        // The scheduler lives on the main thread, where XCTest runs the test.
        try MainActor.assumeIsolated {
            let routine = try RoutineLoader.load(source: "return workout { name = \"Speed\", countdown = 0, work(1), rest(1) }", fileName: "test.lua")
            let scheduler = RunLoopScheduler(speed: 10)
            let session = Session(routine: routine, scheduler: scheduler, options: SessionOptions(bell: false))
            let started = Date()
            Self.runToEnd(session)
            let wall = Date().timeIntervalSince(started)
            XCTAssertGreaterThanOrEqual(wall, 0.19 - RunLoopScheduler.realRunAhead)
            XCTAssertLessThan(wall, 2)
            XCTAssertEqual(session.summary?.elapsed ?? 0, 2, accuracy: 0.001, "elapsed is workout time: the last boundary's planned time")
        }
    }

    func testPauseStopsTheClockForReal() throws {
        // The scheduler lives on the main thread, where XCTest runs the test.
        try MainActor.assumeIsolated {
            let routine = try RoutineLoader.load(source: "return workout { name = \"Pause\", countdown = 0, work(0.3) }", fileName: "test.lua")
            let scheduler = RunLoopScheduler()
            let session = Session(routine: routine, scheduler: scheduler, options: SessionOptions(bell: false))
            session.start()
            RunLoop.main.run(until: Date().addingTimeInterval(0.1))
            session.pause()
            let remaining = session.remainingInSegment
            RunLoop.main.run(until: Date().addingTimeInterval(0.3))
            XCTAssertEqual(session.state, .paused, "no timer fired while paused")
            XCTAssertEqual(session.remainingInSegment, remaining)
            session.resume()
            Self.runToEnd(session)
            XCTAssertEqual(session.state, .finished)
        }
    }
}
