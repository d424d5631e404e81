import TestSupport
import XCTest
@testable import IntervalEngine

/// The order of things at a boundary, and the events a whole run produces.
final class BoundaryTests: XCTestCase {
    func testEventOrderAtABoundary() throws {
        let harness = try Harness("""
            local function tag(what) return function(seg) print(what .. " " .. seg.index) end end
            return workout { name = "Order",
              segment { kind = "work", duration = 10, on_start = tag("on_start"), on_end = tag("on_end") },
              segment { kind = "rest", duration = 5, on_start = tag("on_start"), on_end = tag("on_end") },
              on_start = function(w) print("workout on_start " .. w.segments) end,
              on_segment_start = tag("on_segment_start"),
              on_segment_end = tag("on_segment_end"),
              on_finish = function(s) print("on_finish " .. tostring(s.completed)) end,
            }
            """, options: SessionOptions(bell: true))
        XCTAssertEqual(harness.run(), [
            "0 workout_start Order 2",
            "0 log workout on_start 2",
            "0 segment_start 1 Work",
            "0 log on_start 1",
            "0 log on_segment_start 1",
            "0 bell",
            "7 bell 3", "8 bell 2", "9 bell 1",
            "10 segment_end 1",
            "10 log on_end 1",
            "10 log on_segment_end 1",
            "10 segment_start 2 Rest",
            "10 log on_start 2",
            "10 log on_segment_start 2",
            "10 bell",
            "12 bell 3", "13 bell 2", "14 bell 1",
            "15 segment_end 2",
            "15 log on_end 2",
            "15 log on_segment_end 2",
            "15 bell",
            "15 log on_finish true",
            "15 workout_end true 15 2",
        ])
    }

    func testTimerEventsCarryTheirFire() throws {
        let harness = try Harness("return workout { name = \"F\", work(2), rest(3) }")
        harness.run()
        let starts = harness.events.filter { $0.name == "segment_start" }
        XCTAssertNil(starts[0].fire, "the first segment starts with the workout, not from a timer")
        XCTAssertEqual(starts[1].fire, Fire(at: 2, lateMs: 0))
        XCTAssertEqual(harness.events.last?.fire, Fire(at: 5, lateMs: 0))
    }

    func testSegmentStartCarriesTheSpecFields() throws {
        let harness = try Harness("""
            return workout { name = "Fields", rounds(2, { work(20, "Squat", { reps = 12 }) }, { name = "Legs" }) }
            """)
        harness.run()
        let json = harness.events[1].json
        XCTAssertEqual(json.text, """
            {"event":"segment_start","t":0,"index":1,"count":2,"name":"Squat","kind":"work","duration":20,\
            "round":1,"rounds":2,"block":"Legs","info":{"reps":12}}
            """)
    }

    func testLoadTimePrintsAreReplayedAtStart() throws {
        let harness = try Harness("print('hello', 42) return workout { name = \"P\", work(1) }")
        XCTAssertEqual(Array(harness.run().prefix(2)), ["0 workout_start P 1", "0 log hello\t42"])
    }

    func testCountdownFollowsTheRoutineSetting() throws {
        let harness = try Harness("return workout { name = \"C\", countdown = 1, work(3) }",
                                  options: SessionOptions(bell: true))
        XCTAssertEqual(harness.run().filter { $0.contains("bell") }, ["0 bell", "2 bell 1", "3 bell"])
        let off = try Harness("return workout { name = \"C\", countdown = 0, work(3) }",
                              options: SessionOptions(bell: true))
        XCTAssertEqual(off.run().filter { $0.contains("bell") }, ["0 bell", "3 bell"])
    }

    func testNoBellMeansNoBellEvents() throws {
        let harness = try Harness("return workout { name = \"C\", work(5) }", options: SessionOptions(bell: false))
        XCTAssertEqual(harness.run().filter { $0.contains("bell") }, [])
    }

    func testVoiceAndNotificationsAtSegmentStart() throws {
        let harness = try Harness("""
            return workout { name = "V", countdown = 2, rounds(2, { work(5, "Lunge") }), rest(3) }
            """, options: SessionOptions(bell: false, notify: true, voice: true))
        XCTAssertEqual(harness.run().filter { $0.contains("notify") || $0.contains("say") }, [
            "0 notify Lunge: work · 0:05 · round 1/2 · next: Lunge", "0 say Lunge", "3 say 2", "4 say 1",
            "5 notify Lunge: work · 0:05 · round 2/2 · next: Rest", "5 say Lunge", "8 say 2", "9 say 1",
            "10 notify Rest: rest · 0:03", "10 say Rest", "11 say 2", "12 say 1",
            "13 notify V done: 0:13 · 3/3 segments · 0:10 of work",
        ])
    }

    func testVoiceSaysWhatComesNextBeforeTheCountdown() throws {
        // 20 s segments, countdown 3: "Next" at 20 - 3 - 2 = 15 s; none after the last.
        let harness = try Harness("""
            return workout { name = "V", work(20, "Squats"), rest(20, "Breathe") }
            """, options: SessionOptions(bell: false, voice: true))
        XCTAssertEqual(harness.run().filter { $0.contains("say") }, [
            "0 say Squats", "15 say Next: Breathe", "17 say 3", "18 say 2", "19 say 1",
            "20 say Breathe", "37 say 3", "38 say 2", "39 say 1",
        ])
    }

    func testTheFinishNotificationIsCriticalAndOnlyForACompletedWorkout() throws {
        final class Recorder: AlertPlayer {
            var urgencies: [String: Urgency] = [:]
            func bell() {}
            func notify(title: String, body: String, urgency: Urgency) { urgencies[title] = urgency }
            func say(_ text: String) {}
        }
        let recorder = Recorder()
        let routine = try load("return workout { name = \"F\", work(5, \"A\") }")
        let clock = VirtualClock()
        let switches = AlertSwitches(bell: false, notify: true)
        let session = Session(routine: routine, scheduler: clock, options: SessionOptions(alerts: switches))
        session.subscribe(AlertListener(player: recorder))
        session.start()
        clock.run()
        XCTAssertEqual(recorder.urgencies, ["A": .normal, "F done": .critical])

        let quitter = Recorder()
        let quit = Session(routine: try load("return workout { name = \"F\", work(5, \"A\") }"), scheduler: clock,
                           options: SessionOptions(alerts: switches))
        quit.subscribe(AlertListener(player: quitter))
        quit.start()
        quit.stop()
        XCTAssertEqual(quitter.urgencies, ["A": .normal], "no finish notification after a quit")
    }
}
