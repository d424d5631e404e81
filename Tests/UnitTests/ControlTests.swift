import TestSupport
import XCTest
@testable import IntervalEngine

/// Pause, resume, skip, extend and stop, from Swift (keys) and from Lua (actions), with
/// exact times on the virtual clock.
final class ControlTests: XCTestCase {
    let twoSegments = "return workout { name = \"Two\", work(20, \"A\"), rest(10, \"B\") }"

    func testSkipEndsTheSegmentNowAndTheRestMovesEarlier() throws {
        let harness = try Harness(twoSegments)
        harness.session.start()
        harness.clock.advance(by: 5)
        harness.session.skip()
        harness.clock.run()
        XCTAssertEqual(harness.trace, [
            "0 workout_start Two 2", "0 segment_start 1 A", "5 segment_end 1 skipped", "5 segment_start 2 B",
            "15 segment_end 2", "15 workout_end true 15 2",
        ])
        XCTAssertEqual(harness.session.summary?.segmentsSkipped, 1)
        XCTAssertEqual(harness.session.summary?.workSeconds, 5)
    }

    func testPauseKeepsWhatRemainsAndResumeSchedulesAgain() throws {
        let harness = try Harness(twoSegments)
        harness.session.start()
        harness.clock.advance(by: 5)
        harness.session.pause()
        XCTAssertEqual(harness.clock.pendingCount, 0, "pause invalidates the pending timers")
        harness.clock.advance(by: 100)
        XCTAssertEqual(harness.session.remainingInSegment, 15)
        harness.session.resume()
        harness.clock.run()
        XCTAssertEqual(harness.trace, [
            "0 workout_start Two 2", "0 segment_start 1 A", "5 pause 1 15", "105 resume 1 15",
            "120 segment_end 1", "120 segment_start 2 B", "130 segment_end 2", "130 workout_end true 130 2",
        ])
        XCTAssertEqual(harness.session.summary?.workSeconds, 20, "paused time is not work")
    }

    func testExtendLengthensAndShortens() throws {
        let harness = try Harness(twoSegments)
        harness.session.start()
        harness.clock.advance(by: 5)
        harness.session.extend(by: 10)
        XCTAssertEqual(harness.session.segment.duration, 30)
        harness.clock.run()
        XCTAssertEqual(harness.trace.filter { $0.contains("segment_") }, [
            "0 segment_start 1 A", "30 segment_end 1", "30 segment_start 2 B", "40 segment_end 2",
        ])

        let shorter = try Harness(twoSegments)
        shorter.session.start()
        shorter.clock.advance(by: 5)
        shorter.session.extend(by: -100)
        shorter.clock.run()
        XCTAssertEqual(shorter.trace.filter { $0.contains("segment_") }, [
            "0 segment_start 1 A", "5 segment_end 1 skipped", "5 segment_start 2 B", "15 segment_end 2",
        ])
    }

    func testExtendWhilePausedChangesWhatRemains() throws {
        let harness = try Harness(twoSegments)
        harness.session.start()
        harness.clock.advance(by: 5)
        harness.session.pause()
        harness.session.extend(by: -5)
        harness.clock.advance(by: 10)
        harness.session.resume()
        harness.clock.run()
        XCTAssertEqual(harness.trace[2...4], ["5 pause 1 15", "15 resume 1 10", "25 segment_end 1"])
    }

    func testSkipWhilePausedStartsTheNextSegmentPaused() throws {
        let harness = try Harness(twoSegments)
        harness.session.start()
        harness.clock.advance(by: 5)
        harness.session.pause()
        harness.clock.advance(by: 5)
        harness.session.skip()
        XCTAssertEqual(harness.session.state, .paused)
        XCTAssertEqual(harness.session.remainingInSegment, 10)
        harness.clock.advance(by: 50)
        harness.session.resume()
        harness.clock.run()
        XCTAssertEqual(harness.trace, [
            "0 workout_start Two 2", "0 segment_start 1 A", "5 pause 1 15", "10 segment_end 1 skipped",
            "10 segment_start 2 B", "60 resume 2 10", "70 segment_end 2", "70 workout_end true 70 2",
        ])
    }

    func testStopEndsNotCompletedAndCallsOnFinish() throws {
        let harness = try Harness("""
            return workout { name = "Stop", work(20), rest(10),
              on_finish = function(s) print(tostring(s.completed) .. " " .. s.segments_done .. "/" .. s.segments) end }
            """)
        var finished: Summary?
        harness.session.subscribe { if case let .workoutEnd(summary) = $0.kind { finished = summary } }
        harness.session.start()
        harness.clock.advance(by: 25)
        harness.session.stop()
        XCTAssertEqual(harness.trace.suffix(2), ["25 log false 1/2", "25 workout_end false 25 1"])
        XCTAssertEqual(finished?.completed, false)
        XCTAssertEqual(harness.clock.pendingCount, 0, "stop invalidates everything")
        let count = harness.events.count
        harness.session.skip()
        harness.session.pause()
        harness.session.resume()
        harness.session.extend(by: 5)
        harness.clock.run()
        XCTAssertEqual(harness.events.count, count, "a stopped session ignores further controls")
    }

    func testLuaSkipTakesEffectAfterTheBoundary() throws {
        let harness = try Harness("""
            return workout { name = "Skip", work(20, "A"), rest(10, "B"), work(5, "C"),
              on_segment_start = function(seg)
                if seg.name == "B" then skip() print("after skip") end
              end }
            """)
        XCTAssertEqual(harness.run().filter { !$0.contains("workout_") }, [
            "0 segment_start 1 A", "20 segment_end 1", "20 segment_start 2 B", "20 log after skip",
            "20 segment_end 2 skipped", "20 segment_start 3 C", "25 segment_end 3",
        ])
    }

    func testLuaPauseFromAHookPausesTheNewSegment() throws {
        let harness = try Harness("""
            return workout { name = "Pause", work(20, "A"), rest(10, "B"),
              on_segment_start = function(seg) if seg.index == 2 then pause() end end,
              on_pause = function(seg) print("paused " .. seg.name .. " " .. seg.remaining) end,
              on_resume = function(seg) print("resumed " .. seg.name) end }
            """)
        harness.session.start()
        harness.clock.run()
        XCTAssertEqual(harness.session.state, .paused)
        harness.clock.advance(by: 30)
        harness.session.resume()
        harness.clock.run()
        XCTAssertEqual(harness.trace.filter { !$0.contains("workout_") }, [
            "0 segment_start 1 A", "20 segment_end 1", "20 segment_start 2 B", "20 pause 2 10",
            "20 log paused B 10", "50 resume 2 10", "50 log resumed B", "60 segment_end 2",
        ])
    }

    func testLuaExtendFromAHook() throws {
        let harness = try Harness("""
            return workout { name = "Ext", work(20, "A"), rest(10, "B"),
              on_segment_start = function(seg) if seg.kind == "rest" then extend(-4) end end }
            """)
        XCTAssertEqual(harness.run().filter { $0.contains("segment_end") }, ["20 segment_end 1", "26 segment_end 2"])
    }

    func testSkippingEverySegmentFromAHookDoesNotRecurse() throws {
        let harness = try Harness("""
            return workout { name = "Skip all", rounds(20000, { work(10) }),
              on_segment_start = function() skip() end }
            """)
        harness.run()
        XCTAssertEqual(harness.session.summary?.segmentsSkipped, 20000)
        XCTAssertEqual(harness.session.summary?.elapsed, 0)
    }

    func testActionsOutsideARunAreErrors() {
        XCTAssertEqual(loadError("skip()"),
                       "test.lua:1: skip: only works while the workout runs (call it from a hook or a cue)")
        XCTAssertEqual(loadError("extend('x')"),
                       "test.lua:1: extend: seconds must be a number of seconds (negative to shorten), got \"x\"")
    }
}
