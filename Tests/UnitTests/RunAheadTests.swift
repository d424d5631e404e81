import TestSupport
import XCTest
@testable import IntervalEngine

/// A real run fires each planned moment's timer `runAhead` before the moment and the
/// session's clock reads the moment from then on (`Session.plan`), so that a sound a hook
/// plays is known before it is due. On the virtual clock the same can be asked for: the
/// session must then tell exactly the story it tells without running ahead.
final class RunAheadTests: XCTestCase {
    let routine = """
        local heard = 0
        return workout {
          name = "Ahead", countdown = 2,
          on_segment_end = function(seg) sound("pip") end,
          work { duration = 4, name = "Push", cues = { [1] = function() sound("go") end, [2] = "half" } },
          rest { duration = 3, on_start = function(seg) heard = heard + 1; print("rest " .. heard); sound("rest") end },
          work(2),
        }
        """

    func run(ahead: Double) throws -> (trace: [String], hookSoundClock: [Double], fires: [Double?]) {
        let harness = try Harness(routine, options: SessionOptions(bell: false, sound: true))
        harness.clock.runAhead = ahead
        var hookSoundClock: [Double] = []
        var fires: [Double?] = []
        harness.session.subscribe { [clock = harness.clock] event in
            guard case let .alert(.sound, _, .sound(alert)?) = event.kind, alert.moment == nil else { return }
            hookSoundClock.append(clock.now)
            fires.append(event.fire?.at)
        }
        harness.run()
        return (harness.trace, hookSoundClock, fires)
    }

    func testRunningAheadChangesNoEventNorItsTime() throws {
        let plain = try run(ahead: 0)
        let ahead = try run(ahead: 0.04)
        XCTAssertEqual(ahead.trace, plain.trace, "the same events at the same workout seconds")
        XCTAssertEqual(ahead.fires, plain.fires, "each hook's sound names the moment it belongs to")
        XCTAssertTrue(plain.trace.contains("4 log rest 1"), "\(plain.trace)")
    }

    func testAMomentsHooksRunBeforeItWithTheClockReadingTheMoment() throws {
        let ahead = try run(ahead: 0.04)
        // The first segment's sound at the start (no timer), the cue's (at 1 s), the
        // boundary's two (at 4 s), the next boundaries' (at 7 and 9 s).
        XCTAssertEqual(ahead.fires, [nil, 1, 4, 4, 7, 9])
        for (clock, moment) in zip(ahead.hookSoundClock, ahead.fires) {
            guard let moment else { continue }
            XCTAssertEqual(clock, moment - 0.04, accuracy: 1e-9, "the hook ran 40 ms ahead of its moment")
        }
    }

    func testTheSessionsClockNeverGoesBackAfterRunningAhead() throws {
        let harness = try Harness(routine)
        harness.clock.runAhead = 0.04
        harness.session.start()
        harness.clock.advance(by: 3.97)  // the end of Push (4 s) has run ahead, at 3.96 s
        XCTAssertEqual(harness.session.segment.name, "Rest")
        XCTAssertEqual(harness.session.snapshot().t, 4, accuracy: 1e-9, "the clock reads the moment until it comes")
        XCTAssertEqual(harness.session.remainingInSegment, 3, accuracy: 1e-9)
        harness.session.apply(.pause)
        harness.clock.advance(by: 1.03)
        harness.session.apply(.resume)
        harness.clock.run()
        let end = try XCTUnwrap(harness.events.last)
        guard case let .workoutEnd(summary) = end.kind else { return XCTFail("\(harness.trace)") }
        // Paused from 4 (the session's clock) to 5: 1 s of pause, the rest as planned.
        XCTAssertEqual(summary.active, 9, accuracy: 1e-6)
        XCTAssertEqual(summary.elapsed, 10, accuracy: 1e-6)
        let times = harness.events.map(\.t)
        XCTAssertEqual(times, times.sorted(), "event times never go back: \(harness.trace)")
    }
}
