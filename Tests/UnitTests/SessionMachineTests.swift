@testable import IntervalEngine
import XCTest

/// The session's pause and resume as values: an input, then the state and the actions the
/// session carries out, with no clock and no run loop.
final class SessionMachineTests: XCTestCase {
    func testAPauseWhileRunningStopsTheClockAndSaysSoInOrder() {
        var machine = SessionMachine(phase: .running(nil), segmentStart: 10)
        let actions = machine.pause(at: 25)
        XCTAssertEqual(machine.phase, .paused(since: 25, nil))
        XCTAssertEqual(actions, [.cancelTimers, .emit(.pause), .alert(.pause), .callHook(.pause)])
    }

    func testAResumeMovesTheSegmentsStartOnByThePauseAndPlansAnew() {
        var machine = SessionMachine(phase: .paused(since: 25, nil), segmentStart: 10, pausedSeconds: 3)
        let actions = machine.resume(at: 40)
        XCTAssertEqual(machine, SessionMachine(phase: .running(nil), segmentStart: 25, pausedSeconds: 18))
        XCTAssertEqual(actions, [.scheduleTimers, .emit(.resume), .alert(.resume), .callHook(.resume)])
    }

    func testAPauseInABoundaryWaitsForItsEnd() {
        let boundary = SessionPhase.Boundary(betweenSegments: false)
        var machine = SessionMachine(phase: .running(boundary))
        XCTAssertEqual(machine.pause(at: 5), [])
        var waiting = boundary
        waiting.pause = true
        XCTAssertEqual(machine.phase, .running(waiting))
    }

    func testAResumeInABoundaryKeepsTheBoundary() {
        let boundary = SessionPhase.Boundary(betweenSegments: true)
        var machine = SessionMachine(phase: .paused(since: 2, boundary))
        XCTAssertEqual(machine.resume(at: 4).first, .scheduleTimers)
        XCTAssertEqual(machine.phase, .running(boundary))
    }

    func testNeitherActsWhereItHasNothingToDo() {
        for phase in [SessionPhase.ready, .finished, .paused(since: 1, nil)] {
            var machine = SessionMachine(phase: phase)
            XCTAssertEqual(machine.pause(at: 3), [], "pause in \(phase)")
            XCTAssertEqual(machine.phase, phase)
        }
        for phase in [SessionPhase.ready, .finished, .running(nil)] {
            var machine = SessionMachine(phase: phase)
            XCTAssertEqual(machine.resume(at: 3), [], "resume in \(phase)")
            XCTAssertEqual(machine.phase, phase)
        }
    }
}
