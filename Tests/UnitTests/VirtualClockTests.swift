import TestSupport
import XCTest
@testable import IntervalEngine
@testable import LuaBridge

/// The virtual clock refuses to run without end, and a dry run says why it stopped.
final class VirtualClockTests: XCTestCase {
    func testTheClockStopsAtItsStepLimitInsteadOfRunningForever() {
        let clock = VirtualClock()
        clock.stepLimit = 100
        var runs = 0
        func again(_: Fire) {
            runs += 1
            clock.schedule(at: clock.now, again)  // plans itself at the same moment, for ever
        }
        clock.schedule(at: 1, again)
        XCTAssertFalse(clock.run(), "refused to go on")
        XCTAssertTrue(clock.reachedStepLimit)
        XCTAssertEqual(runs, 100)
        XCTAssertEqual(clock.steps, 100)
        XCTAssertEqual(clock.now, 1)
    }

    func testAClockThatRanOutOfWorkHasNotReachedItsLimit() {
        let clock = VirtualClock()
        clock.stepLimit = 3
        for time in [1.0, 2, 3] { clock.schedule(at: time) { _ in } }
        XCTAssertTrue(clock.run())
        XCTAssertFalse(clock.reachedStepLimit, "three steps of three, none left")
    }

    func testADryRunPastTheStepLimitSaysSoAndStops() throws {
        let routine = try load("return workout { name = 'Many', countdown = 3, rounds(50, { work(10), rest(5) }) }")
        let clock = VirtualClock()
        clock.stepLimit = 40
        let session = Session(routine: routine, scheduler: clock, options: SessionOptions(bell: false))
        let ending = DryRun.run(session, on: clock, until: DryRun.limit(routine.timeline))
        XCTAssertEqual(ending, .tookTooManySteps)
        XCTAssertEqual(session.state, .finished)
        XCTAssertEqual(ending.problem?.contains("10,000,000 timers"), true, ending.problem ?? "")
    }
}
