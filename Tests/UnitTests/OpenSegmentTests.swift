import PastSessions
import WorkoutValues
import TestSupport
import XCTest
@testable import History
@testable import IntervalEngine
@testable import LuaBridge

/// Segments that end when the athlete says so, on the virtual clock: done at any moment,
/// during a cue, twice, while paused; the cap; going back; the rest after a set planned
/// from the done moment; tallies, laps and the scores of for_time and amrap.
final class OpenSegmentTests: XCTestCase {
    /// A set (open, capped at 60 s) and a 10 s rest, with a 3 s countdown.
    let set = """
        return workout { name = "Set", countdown = 3,
          work{ open = true, name = "Squats", cap = 60, expect = 40 }, rest(10, "Rest") }
        """

    func testDoneEndsTheSetAndTheRestIsPlannedFromThatMoment() throws {
        let harness = try Harness(set, options: SessionOptions(bell: true))
        var planned: [String] = []
        var withdrawn: [String] = []
        final class Moments: SessionListener {
            var onPlanned: (PlannedMoment) -> Void = { _ in }
            var onWithdrawn: (PlannedMoment) -> Void = { _ in }
            func receive(_ event: Event) {}
            func planned(_ moment: PlannedMoment) { onPlanned(moment) }
            func withdrawn(_ moment: PlannedMoment) { onWithdrawn(moment) }
        }
        let moments = Moments()
        moments.onPlanned = { planned.append("\(Number.format($0.at)) \($0.kind)") }
        moments.onWithdrawn = { withdrawn.append("\(Number.format($0.at)) \($0.kind)") }
        harness.session.subscribe(moments)
        harness.session.start()
        XCTAssertEqual(planned.first, "60 boundary(next: Optional(WorkoutValues.SegmentSummary(index: 2, count: Optional(2), name: \"Rest\", kind: \"rest\", duration: 10.0, round: nil, rounds: nil, block: nil, open: nil, line: 2)), last: false)",
                       "an open segment with a cap plans its end at the cap")
        harness.clock.advance(by: 7.25)
        planned = []
        harness.session.apply(.done)
        XCTAssertTrue(withdrawn.contains { $0.hasPrefix("60 boundary") }, "the cap's end is withdrawn: \(withdrawn)")
        XCTAssertTrue(planned.contains { $0.hasPrefix("17.25 boundary") }, "the rest ends 10 s after done: \(planned)")
        harness.clock.run()
        XCTAssertEqual(harness.trace.filter { !$0.contains("bell") || $0.contains("bell 3") }, [
            "0 workout_start Set 2", "0 segment_start 1 Squats", "7.25 segment_end 1 by athlete",
            "7.25 segment_start 2 Rest", "14.25 bell 3", "17.25 segment_end 2", "17.25 workout_end true 17.25 2",
        ])
        XCTAssertEqual(harness.session.summary?.open, [OpenSegmentRecord(index: 1, name: "Squats", seconds: 7.25, by: .athlete)])
    }

    func testTheCapEndsItAndWithoutOneNothingButDoneDoes() throws {
        let capped = try Harness(set)
        capped.run()
        XCTAssertTrue(capped.trace.contains("60 segment_end 1 by cap"), "\(capped.trace)")

        let uncapped = try Harness("return workout { name = \"U\", work{ open = true }, rest(5) }")
        uncapped.session.start()
        XCTAssertEqual(uncapped.clock.pendingCount, 0, "no fire date: only done ends it")
        uncapped.clock.advance(by: 3600)
        XCTAssertEqual(uncapped.session.state, .running)
        XCTAssertEqual(uncapped.session.snapshot().elapsedInSegment, 3600, "its clock counts up")
        uncapped.session.apply(.done)
        uncapped.clock.run()
        XCTAssertEqual(uncapped.trace.suffix(4), ["3600 segment_end 1 by athlete", "3600 segment_start 2 Rest",
                                                 "3605 segment_end 2", "3605 workout_end true 3605 2"])
    }

    func testDoneTwiceIsOneDoneAndDoneOnATimedSegmentDoesNothing() throws {
        let harness = try Harness("""
            return workout { name = "Two sets", countdown = 0, work{ open = true, name = "A" },
              work{ open = true, name = "B" }, rest(5, "R") }
            """)
        harness.session.start()
        harness.clock.advance(by: 20)
        harness.session.apply(.done)
        harness.session.apply(.done)
        harness.clock.advance(by: 0.5)
        harness.session.apply(.done)
        XCTAssertEqual(harness.session.segment.name, "B", "a second press within \(Session.doneGrace) s is the same press")
        harness.clock.advance(by: 30)
        harness.session.apply(.done)
        XCTAssertEqual(harness.session.segment.name, "R")
        harness.session.apply(.done)
        harness.clock.advance(by: 1)
        harness.session.apply(.done)
        XCTAssertEqual(harness.session.segment.name, "R", "done does nothing to a timed segment")
        harness.clock.run()
        XCTAssertEqual(harness.trace.last, "55.5 workout_end true 55.5 3")
    }

    func testDoneFromACueWaitsForTheCueAndSaysAHookDidIt() throws {
        let harness = try Harness("""
            return workout { name = "Cue", countdown = 0,
              work{ open = true, name = "Hold", cues = { [30] = function() done(); print("after done") end } },
              rest(5, "R") }
            """)
        harness.run()
        XCTAssertEqual(harness.trace, [
            "0 workout_start Cue 2", "0 segment_start 1 Hold", "30 cue 1@30", "30 log after done",
            "30 segment_end 1 by hook", "30 segment_start 2 R", "35 segment_end 2", "35 workout_end true 35 2",
        ])
    }

    func testDoneWhilePausedStartsTheRestPausedFromWhereTheSetStopped() throws {
        let harness = try Harness(set)
        harness.session.start()
        harness.clock.advance(by: 12)
        harness.session.apply(.pause)
        harness.clock.advance(by: 100)
        harness.session.apply(.done)
        XCTAssertEqual(harness.session.state, .paused)
        XCTAssertEqual(harness.session.segment.name, "Rest")
        XCTAssertEqual(harness.session.remainingInSegment, 10, "the rest has not begun")
        harness.session.apply(.resume)
        harness.clock.run()
        XCTAssertEqual(harness.session.summary?.open.first?.seconds, 12, "pauses are not the set's time")
        XCTAssertEqual(harness.trace.suffix(2), ["122 segment_end 2", "122 workout_end true 122 2"])
    }

    func testGoingBackIntoASetRedoesItAndForgetsItsTime() throws {
        let harness = try Harness(set)
        harness.session.start()
        harness.clock.advance(by: 30)
        harness.session.apply(.done)
        harness.clock.advance(by: 1)
        harness.session.apply(.back)
        XCTAssertEqual(harness.session.segment.name, "Squats")
        harness.clock.advance(by: 20)
        harness.session.apply(.done)
        harness.clock.run()
        XCTAssertEqual(harness.session.summary?.open.map(\.seconds), [20], "the first attempt was gone back over")
    }

    func testTalliesCountAndHooksHearThem() throws {
        let harness = try Harness("""
            return workout { name = "AMRAP", countdown = 0,
              amrap{ minutes = 1, name = "Cindy" },
              on_tally = function(seg, name, value) print(seg.name .. " " .. name .. "=" .. value .. " read " .. tally(name)) end,
            }
            """)
        harness.session.start()
        for _ in 0..<3 {
            harness.clock.advance(by: 10)
            harness.session.apply(.tally(name: "rounds", add: 1))
        }
        harness.session.apply(.tally(name: "rounds", add: -1))
        harness.session.apply(.tally(name: "\u{1B}[31m", add: 1))
        harness.session.apply(.tally(name: "rounds", add: 5_000))
        harness.clock.run()
        XCTAssertEqual(harness.trace, [
            "0 workout_start AMRAP 1", "0 segment_start 1 Cindy",
            "10 tally rounds 1", "10 log Cindy rounds=1 read 1", "20 tally rounds 2", "20 log Cindy rounds=2 read 2",
            "30 tally rounds 3", "30 log Cindy rounds=3 read 3", "30 tally rounds 2", "30 log Cindy rounds=2 read 2",
            "60 segment_end 1", "60 score rounds 2 higher", "60 workout_end true 60 1",
        ], "a name with control characters and a step past the bound are refused")
        XCTAssertEqual(harness.session.summary?.scores, [Score(name: "rounds", value: 2)])
    }

    func testForTimeRecordsItsTimeOrThatItWasCapped() throws {
        let fran = """
            return workout { name = "Fran", countdown = 0, for_time{ cap = "10m" } }
            """
        let done = try Harness(fran)
        done.session.start()
        done.clock.advance(by: 263.5)
        done.session.apply(.done)
        done.clock.run()
        XCTAssertEqual(done.session.summary?.scores, [Score(name: "time", value: 263.5, lowerIsBetter: true)])
        XCTAssertEqual(done.session.summary?.completed, true)

        let capped = try Harness(fran)
        capped.session.start()
        capped.clock.advance(by: 100)
        capped.session.apply(.tally(name: "rounds", add: 2))
        capped.clock.run()
        XCTAssertEqual(capped.session.summary?.scores, [Score(name: "capped", value: 1), Score(name: "rounds", value: 2)])
        XCTAssertTrue(capped.trace.contains("600 segment_end 1 by cap"))
    }

    func testLapsAreSplitsOfTheSegmentAndGoIntoItsRecord() throws {
        let harness = try Harness("""
            return workout { name = "Run", countdown = 0, work{ open = true, name = "5 km" },
              on_lap = function(seg, split) print("lap " .. split) end }
            """)
        harness.session.start()
        harness.clock.advance(by: 300)
        harness.session.apply(.lap)
        harness.clock.advance(by: 290)
        harness.session.apply(.lap)
        harness.session.apply(.lap)
        harness.clock.advance(by: 10)
        harness.session.apply(.done)
        XCTAssertEqual(harness.trace.filter { $0.contains("lap") },
                       ["300 lap 1 1 300", "300 log lap 300", "590 lap 1 2 290", "590 log lap 290"],
                       "a lap of no time is not a lap")
        XCTAssertEqual(harness.session.summary?.open, [OpenSegmentRecord(index: 1, name: "5 km", seconds: 600, by: .athlete,
                                                                         laps: [300, 290])])
    }

    func testADryRunsStandInEndsEachSetWhenItWasExpectedOrAtTheAssumedLength() throws {
        var options = SessionOptions(bell: false)
        options.standInAthlete = true
        let harness = try Harness(set, options: options)
        XCTAssertEqual(DryRun.run(harness.session, on: harness.clock, until: .infinity), .finished)
        XCTAssertTrue(harness.trace.contains("40 segment_end 1 by athlete"), "\(harness.trace)")

        let routine = try load(set)
        routine.timeline.assume(openSeconds: 90)
        XCTAssertEqual(routine.timeline.segments.map(\.duration), [60, 10], "assumed, within the cap")
        XCTAssertEqual(routine.timeline.segments.map(\.start), [0, 60])

        let alone = try Harness("return workout { name = \"U\", work{ open = true } }")
        XCTAssertEqual(DryRun.run(alone.session, on: alone.clock, until: .infinity), .waitedForTheAthlete,
                       "without a stand-in nobody ends it: the dry run stops rather than waits for ever")
    }

    func testTheHistoryKeepsEachSetsLengthAndReadsItBack() throws {
        let record = OpenSegmentRecord(index: 3, name: "Squats ×5", seconds: 41.25, by: .athlete, laps: [20, 21.25])
        let entry = HistoryEntry(program: "Strength", file: "/x/strength.lua", sha256: "ab",
                                 started: Date(timeIntervalSince1970: 1_700_000_000),
                                 ended: Date(timeIntervalSince1970: 1_700_000_900), completed: true, elapsed: 900,
                                 segmentsDone: 5, segments: 5, workSeconds: 200, open: [record, OpenSegmentRecord(
                                     index: 5, name: "Plank", seconds: 60, by: .cap)])
        let line = entry.json.text
        XCTAssertTrue(line.contains(#""open":[{"index":3,"name":"Squats ×5","seconds":41.25,"by":"athlete","laps":[20,21.25]}"#), line)
        XCTAssertEqual(HistoryEntry(line: line), entry)
        XCTAssertNil(HistoryEntry(line: line.replacingOccurrences(of: #""by":"cap""#, with: #""by":"magic""#)),
                     "a damaged record damages the line")
        let plain = HistoryEntry(program: "P", file: "f", sha256: "", started: entry.started, ended: entry.ended,
                                 completed: true, elapsed: 1, segmentsDone: 1, segments: 1, workSeconds: 0)
        XCTAssertFalse(plain.json.text.contains("open"), "a session without open segments writes its line as before")
    }

    func testOpenSegmentsAreCheckedWhereTheyAreWritten() {
        XCTAssertEqual(loadError("return workout { name = \"N\", work{ open = true, duration = 30 } }"),
                       "test.lua:1: work: an open segment has no duration: it ends when it is done (cap = … ends it at the latest, expect = … is what plan counts)")
        XCTAssertEqual(loadError("return workout { name = \"N\", work{ duration = 30, cap = 60 } }"),
                       "test.lua:1: work: cap and expect go with open = true")
        XCTAssertEqual(loadError("return workout { name = \"N\", work{ open = true, cues = { [-5] = \"almost\" } } }"),
                       "test.lua:1: work: an open segment without a cap has no end to count back from: its cues count from its start ([90] = …)")
        XCTAssertEqual(loadError("return workout { name = \"N\", work{ open = true, kind = \"rest\" } }"),
                       "test.lua:1: work: unknown field 'kind' (expected duration, name, info, cues, on_start, on_end, open, cap, expect, distance, hr, until_hr_below, until_sample)")
        XCTAssertEqual(loadError("return workout { name = \"N\", amrap{ name = \"A\" } }"),
                       "test.lua:1: amrap: minutes is missing (e.g. minutes = 12)")
        XCTAssertNil(loadError("return workout { name = \"N\", work{ open = true, cap = 60, cues = { [-5] = \"almost\", half = \"half\" } } }"))
    }
}
