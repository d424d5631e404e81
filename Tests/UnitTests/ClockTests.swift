import Foundation
import TestSupport
import XCTest
@testable import IntervalEngine

/// Settable clocks for the run-loop scheduler.
final class FakeClocks: @unchecked Sendable {
    private let lock = NSLock()
    private var _monotonic: UInt64 = 1_000_000_000
    private var _wallOffset: TimeInterval = 0
    private var _sleptNanoseconds: UInt64 = 0
    /// Fake monotonic time, or nil to follow the real monotonic clock.
    var manualMonotonic = true

    var monotonic: UInt64 {
        get { lock.withLock { manualMonotonic ? _monotonic : Clocks.system.monotonic() } }
        set { lock.withLock { _monotonic = newValue } }
    }
    var wallOffset: TimeInterval {
        get { lock.withLock { _wallOffset } }
        set { lock.withLock { _wallOffset = newValue } }
    }
    /// Seconds the "machine" slept: the boot-time clock runs this far ahead.
    func sleep(_ seconds: Double) { lock.withLock { _sleptNanoseconds += UInt64(seconds * 1e9) } }
    var slept: UInt64 { lock.withLock { _sleptNanoseconds } }

    var clocks: Clocks {
        Clocks(monotonic: { self.monotonic },
               wall: { Date().addingTimeInterval(self.wallOffset) },
               boottime: { self.monotonic + self.slept })
    }
}

/// Deadlines follow the monotonic clock; a wall-clock jump moves nothing; a system
/// suspend pauses the workout where it was.
final class ClockTests: XCTestCase {
    func testAWallClockJumpOfAnHourMovesNoTimer() throws {
        // The scheduler lives on the main thread, where XCTest runs the test.
        try MainActor.assumeIsolated {
            // Timers are fired by hand (this test never turns the run loop), with the monotonic
            // clock set to each deadline: the test sees exactly what the scheduler computes.
            let fake = FakeClocks()
            let routine = try load("return workout { name = 'Jump', countdown = 0, work(10), rest(10), work(10) }")
            let scheduler = RunLoopScheduler(runLoop: .main, clocks: fake.clocks, watchesSuspend: false)
            var events: [Event] = []
            let session = Session(routine: routine, scheduler: scheduler, options: SessionOptions(bell: false)) {
                events.append($0)
            }
            session.start()
            let origin = fake.monotonic
            for (step, jump) in [3600.0, -3600, 3600].enumerated() {
                let pending = try XCTUnwrap(scheduler.pendingTimers.first)
                XCTAssertEqual(scheduler.pendingTimers.count, 1)
                // Each boundary runs its hooks ahead of its moment (`RunLoopScheduler.runAhead`).
                let ahead = UInt64(RunLoopScheduler.realRunAhead * 1e9)
                XCTAssertEqual(pending.deadline, origin + UInt64(step + 1) * 10_000_000_000 - ahead, "from the plan, not from now")
                // The fire date says the same monotonic deadline in the wall clock of the moment.
                let expected = Date().addingTimeInterval(fake.wallOffset + Double(pending.deadline - fake.monotonic) / 1e9)
                XCTAssertEqual(pending.timer.fireDate.timeIntervalSince1970, expected.timeIntervalSince1970, accuracy: 0.01)
                // Halfway, the wall clock jumps by an hour: workout time does not move.
                fake.monotonic = origin + UInt64(step) * 10_000_000_000 + 5_000_000_000
                let before = scheduler.now
                fake.wallOffset += jump
                XCTAssertEqual(scheduler.now, before)
                XCTAssertEqual(scheduler.now, Double(step) * 10 + 5, accuracy: 1e-9)
                fake.monotonic = pending.deadline
                pending.timer.fire()
            }
            XCTAssertEqual(session.state, .finished)
            let boundaries = events.filter { $0.name == "segment_start" || $0.name == "workout_end" }
            XCTAssertEqual(boundaries.map(\.t), [0, 10, 20, 30])
            XCTAssertEqual(boundaries.dropFirst().map { $0.fire?.lateMs }, [0, 0, 0])
        }
    }

    func testTheDetectorSeesOnlyTheBootClockRunningAhead() {
        let fake = FakeClocks()
        var detector = SuspendDetector(clocks: fake.clocks)
        fake.monotonic += 60_000_000_000
        XCTAssertNil(detector.check(), "time passing is not sleep")
        fake.wallOffset = -7200
        XCTAssertNil(detector.check(), "nor is a wall-clock jump")
        fake.sleep(0.5)
        XCTAssertNil(detector.check(), "a sleep under a second is ignored")
        fake.sleep(0.75)
        XCTAssertEqual(detector.check() ?? 0, 1.25, accuracy: 1e-9)
        XCTAssertNil(detector.check(), "reported once")
        fake.sleep(30)
        detector.reanchor()
        XCTAssertNil(detector.check(), "a sleep before the anchor is forgotten")
    }

    private static func runLoop(until condition: () -> Bool, timeout: TimeInterval = 5) {
        let giveUp = Date().addingTimeInterval(timeout)
        while !condition() && Date() < giveUp {
            _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.01))
        }
    }

    func testASuspendPausesTheWorkoutWhereItWasAndResumeCallsOnResume() throws {
        // The scheduler lives on the main thread, where XCTest runs the test.
        try MainActor.assumeIsolated {
            let fake = FakeClocks()
            fake.manualMonotonic = false
            let routine = try load("""
                return workout { name = "Sleep", countdown = 0,
                  segment { kind = "work", duration = 0.4, cues = { [0.2] = "cue" } }, rest(0.1),
                  on_pause = function(seg) print("paused with " .. string.format("%.1f", seg.remaining)) end,
                  on_resume = function(seg) print("resumed in " .. seg.index) end }
                """)
            let scheduler = RunLoopScheduler(clocks: fake.clocks)
            var events: [Event] = []
            let session = Session(routine: routine, scheduler: scheduler, options: SessionOptions(bell: false)) {
                events.append($0)
            }
            session.start()
            RunLoop.main.run(until: Date().addingTimeInterval(0.05))
            fake.sleep(3600)
            // The cue's timer is the first to fire after the "wake": the suspend is noticed
            // before it runs, and the workout pauses there.
            Self.runLoop(until: { session.state == .paused })
            XCTAssertEqual(session.state, .paused)
            XCTAssertEqual(session.segment.index, 1, "the boundary did not happen")
            XCTAssertEqual(session.remainingInSegment, 0.2, accuracy: 0.05)
            let names = events.map(\.name)
            XCTAssertEqual(Array(names.suffix(3)), ["suspend", "pause", "log"])
            guard case let .suspend(index, missed) = events[events.count - 3].kind else { return XCTFail("no suspend") }
            XCTAssertEqual(index, 1)
            XCTAssertEqual(missed, 3600, accuracy: 0.001)
            XCTAssertFalse(names.contains("cue"), "the cue waits for the user")
            // Nothing runs while paused; then the user resumes.
            RunLoop.main.run(until: Date().addingTimeInterval(0.3))
            XCTAssertEqual(session.state, .paused)
            session.resume()
            Self.runLoop(until: { session.state == .finished })
            XCTAssertEqual(session.state, .finished)
            let after = events.drop { $0.name != "resume" }
            XCTAssertEqual(after.map(\.name), ["resume", "log", "cue", "segment_end", "segment_start", "segment_end", "workout_end"])
            XCTAssertEqual(Harness.describe(after[after.startIndex + 1]).split(separator: " ", maxSplits: 1).last, "log resumed in 1")
            XCTAssertEqual(events.filter { $0.name == "suspend" }.count, 1)
        }
    }

    func testTheSentinelNoticesAWakeBeforeAnyTimerFires() throws {
        // The scheduler lives on the main thread, where XCTest runs the test.
        try MainActor.assumeIsolated {
            // After a sleep longer than the time to the next timer, the boot-time sentinel
            // fires on waking. Here it is set to fire 0.25 s before the segment's end.
            let fake = FakeClocks()
            fake.manualMonotonic = false
            let routine = try load("return workout { name = 'Lid', countdown = 0, work(0.4) }")
            let scheduler = RunLoopScheduler(clocks: fake.clocks)
            scheduler.sentinelMargin = -0.25
            scheduler.sentinelSlack = 0
            var events: [Event] = []
            let session = Session(routine: routine, scheduler: scheduler, options: SessionOptions(bell: false)) {
                events.append($0)
            }
            session.start()
            fake.sleep(120)
            Self.runLoop(until: { session.state == .paused })
            XCTAssertEqual(events.map(\.name), ["workout_start", "segment_start", "suspend", "pause"])
            XCTAssertNil(events[2].fire, "no timer caused it")
            XCTAssertEqual(session.remainingInSegment, 0.25, accuracy: 0.05)
            session.stop()
        }
    }

    func testTheSentinelIsNotReArmedForEveryTick() throws {
        // The scheduler lives on the main thread, where XCTest runs the test.
        MainActor.assumeIsolated {
            // The display's tenths: each fire schedules the next, 10 ms later. The sentinel's
            // armed time stays good for a second of them, so it is armed once, not per tick.
            let scheduler = RunLoopScheduler()
            var fires = 0
            @MainActor func tick() {
                scheduler.schedule(at: scheduler.now + 0.01) { _ in
                    fires += 1
                    if fires < 20 { tick() }
                }
            }
            tick()
            Self.runLoop(until: { fires == 20 })
            XCTAssertEqual(fires, 20)
            XCTAssertLessThanOrEqual(scheduler.sentinelArmings, 2, "armed \(scheduler.sentinelArmings) times for 20 ticks")
            XCTAssertGreaterThanOrEqual(scheduler.sentinelArmings, 1)
        }
    }

    func testASleepWhilePausedIsNotASuspend() throws {
        // The scheduler lives on the main thread, where XCTest runs the test.
        try MainActor.assumeIsolated {
            let fake = FakeClocks()
            fake.manualMonotonic = false
            let routine = try load("return workout { name = 'Paused', countdown = 0, work(0.2) }")
            let scheduler = RunLoopScheduler(clocks: fake.clocks)
            var events: [Event] = []
            let session = Session(routine: routine, scheduler: scheduler, options: SessionOptions(bell: false)) {
                events.append($0)
            }
            session.start()
            session.pause()
            fake.sleep(600)
            session.resume()
            Self.runLoop(until: { session.state == .finished })
            XCTAssertEqual(session.state, .finished)
            XCTAssertFalse(events.contains { $0.name == "suspend" })
        }
    }

    func testTheSentinelFiresOnTheBootClock() throws {
        var woke = false
        let sentinel = try XCTUnwrap(SuspendSentinel { woke = true })
        sentinel.arm(in: 0.05)
        Self.runLoop(until: { woke }, timeout: 2)
        XCTAssertTrue(woke)
    }

    func testTheSuspendEventInJSONAndPlainText() throws {
        let harness = try Harness("return workout { name = 'S', work(10), on_resume = function(seg) print('back') end }")
        harness.session.start()
        harness.clock.advance(by: 4)
        harness.session.suspended(missed: 3725)
        harness.clock.advance(by: 100)
        harness.session.resume()
        harness.clock.run()
        XCTAssertEqual(harness.trace, [
            "0 workout_start S 1", "0 segment_start 1 Work", "4 suspend 1 3725", "4 pause 1 6",
            "104 resume 1 6", "104 log back", "110 segment_end 1", "110 workout_end true 110 1",
        ])
        let event = harness.events[2]
        XCTAssertEqual(event.json.text, #"{"event":"suspend","t":4,"index":1,"missed":3725}"#)
        XCTAssertEqual(PlainText.line(event), "0:04.0  the computer slept for 1:02:05 in 1; paused")
    }
}
