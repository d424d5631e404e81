import TestSupport
import XCTest
@testable import IntervalEngine
@testable import LuaBridge

/// `generate(fn)` (open-ended steps): segments pulled from a coroutine one yield
/// at a time, at the boundary that needs them, after the old segment's hooks.
final class GenerateTests: XCTestCase {
    func testTheGeneratorIsAskedAtTheBoundaryAfterTheOldSegmentsHooks() throws {
        let harness = try Harness("""
            return workout { name = "Order",
              work(10, "A"),
              generate(function()
                print("generate 1")
                coroutine.yield(work(5, "B"))
                print("generate 2")
              end),
              rest(3, "C"),
              on_segment_end = function(seg) print("on_segment_end " .. seg.index) end,
              on_segment_start = function(seg) print("on_segment_start " .. seg.index) end,
            }
            """)
        XCTAssertEqual(harness.run(), [
            "0 workout_start Order open-ended",
            "0 segment_start 1 A", "0 log on_segment_start 1",
            "10 segment_end 1", "10 log on_segment_end 1",
            "10 log generate 1",
            "10 segment_start 2 B", "10 log on_segment_start 2",
            "15 segment_end 2", "15 log on_segment_end 2",
            "15 log generate 2",
            "15 segment_start 3 C", "15 log on_segment_start 3",
            "18 segment_end 3", "18 log on_segment_end 3",
            "18 workout_end true 18 3",
        ])
    }

    func testTheGeneratorSeesWhatAHookChanged() throws {
        let harness = try Harness("""
            local done = 0
            return workout { name = "Adapt",
              generate(function()
                while done < 3 do coroutine.yield(work(10 + done, "after " .. done)) end
              end),
              on_segment_end = function() done = done + 1 end,
            }
            """)
        harness.run()
        XCTAssertEqual(harness.events.compactMap(startedName), ["after 0", "after 1", "after 2"])
        XCTAssertEqual(harness.session.summary?.elapsed, 33)
        XCTAssertEqual(harness.session.summary?.completed, true)
    }

    func testRunElapsedIsWorkoutTimeWithoutPauses() throws {
        let harness = try Harness("""
            return workout { name = "Elapsed",
              generate(function(run)
                repeat
                  print(run.index .. " at " .. run.elapsed)
                  coroutine.yield(work(10))
                until run.elapsed >= 20
              end),
            }
            """)
        harness.session.start()
        harness.clock.advance(by: 4)
        harness.session.pause()
        harness.clock.advance(by: 100)
        harness.session.resume()
        harness.session.extend(by: 5)
        harness.clock.run()
        XCTAssertEqual(harness.events.compactMap(logText), ["1 at 0", "2 at 15"], "15 s done at the second ask: 4 + 6 + 5 extended, the 100 s paused not counted")
    }

    func testSegmentsCountIsNullInEventsAndNilInHooks() throws {
        let harness = try Harness("""
            return workout { name = "Open",
              generate(function() coroutine.yield(work(5, "Only")) end),
              on_start = function(w) print(tostring(w.segments) .. " " .. tostring(w.duration)) end,
              on_segment_start = function(seg) print("count " .. tostring(seg.count)) end,
              on_finish = function(s) print("summary " .. s.segments) end,
            }
            """)
        harness.run()
        XCTAssertEqual(harness.events[0].json.text,
                       #"{"event":"workout_start","t":0,"name":"Open","segments":null,"duration":null,"speed":1}"#)
        let start = try XCTUnwrap(harness.events.first { $0.name == "segment_start" })
        XCTAssertTrue(start.json.text.contains(#""index":1,"count":null,"name":"Only""#), start.json.text)
        XCTAssertEqual(harness.events.compactMap(logText), ["nil nil", "count nil", "summary 1"])
    }

    func testAnErrorEndsTheGeneratorAndTheWorkoutGoesOn() throws {
        let harness = try Harness("""
            return workout { name = "Oops",
              generate(function()
                coroutine.yield(work(5, "A"))
                local missing
                print(missing.field)
              end),
              cooldown(5, "After"),
            }
            """)
        harness.run()
        XCTAssertEqual(harness.trace.filter { !$0.contains("segment_end") }, [
            "0 workout_start Oops open-ended", "0 segment_start 1 A", "5 error generate",
            "5 segment_start 2 After", "10 workout_end true 10 2",
        ])
        guard case let .error(message, _, traceback) = harness.events[3].kind else { return XCTFail("no error") }
        XCTAssertTrue(message.hasPrefix("test.lua:5: attempt to index a nil value"), message)
        XCTAssertTrue(traceback?.contains("test.lua:5") == true, traceback ?? "no traceback")
    }

    func testABadYieldNamesItsLine() throws {
        for (yield, expected) in [
            ("5", "test.lua:3: generate: yielded 5, expected a step such as work(20) or rounds(…)"),
            ("work(1), \"x\"", "test.lua:3: generate: yielded \"x\", expected a step such as work(20) or rounds(…)"),
            ("generate(function() end)", "test.lua:3: generate: yielded a step holding generate(…); a generator gives fixed steps (segments and rounds)"),
        ] {
            let harness = try Harness("""
                return workout { name = "Bad", work(1), generate(function()
                  coroutine.yield(work(2))
                  coroutine.yield(\(yield))
                end), rest(1) }
                """)
            harness.run()
            let errors = harness.events.compactMap { event -> String? in
                if case let .error(message, "generate", _) = event.kind { return message }
                return nil
            }
            XCTAssertEqual(errors, [expected])
            XCTAssertEqual(harness.session.summary?.segmentsDone, 3, "work, the first yield, and the rest after")
        }
    }

    func testAnEndlessLoopInAGeneratorIsStoppedByTheHookBudget() throws {
        let routine = try RoutineLoader.load(source: """
            return workout { name = "Loop", work(1), generate(function()
              coroutine.yield(work(1))
              while true do end
            end), rest(1) }
            """, fileName: "loop.lua", limits: LuaLimits(hookInstructions: 100_000))
        let harness = Harness(routine)
        harness.run()
        let message = harness.events.compactMap { event -> String? in
            if case let .error(message, "generate", _) = event.kind { return message }
            return nil
        }
        XCTAssertEqual(message, ["loop.lua:3: instruction limit reached (an endless loop?)"])
        XCTAssertEqual(harness.session.summary?.completed, true)
        XCTAssertEqual(harness.session.summary?.segmentsDone, 3)
    }

    func testAMemoryBombInAGeneratorIsStopped() throws {
        let routine = try RoutineLoader.load(source: """
            return workout { name = "Bomb", generate(function()
              local t = {}
              while true do t[#t + 1] = string.rep("x", 4096) .. #t end
            end), rest(1) }
            """, fileName: "bomb.lua", limits: LuaLimits(memory: 8 * 1024 * 1024))
        let harness = Harness(routine)
        harness.run()
        XCTAssertTrue(harness.trace.contains("0 error generate"), harness.trace.joined(separator: "\n"))
        XCTAssertEqual(harness.session.summary?.segmentsDone, 1, "the rest after the generator still runs")
    }

    func testSkipBackAndExtendWorkOnGeneratedSegments() throws {
        let harness = try Harness("""
            local asked = 0
            return workout { name = "Controls", generate(function()
              for i = 1, 3 do
                asked = asked + 1
                print("asked " .. asked)
                coroutine.yield(work(10, "G" .. i))
              end
            end) }
            """)
        let session = harness.session
        session.start()
        harness.clock.advance(by: 3)
        session.skip()                         // G1 skipped at 3: G2 is asked for
        harness.clock.advance(by: 1)
        session.back()                         // within 2 s: back to G1, already known
        XCTAssertEqual(session.segment.name, "G1")
        session.extend(by: 5)                  // G1 now 15 s
        harness.clock.run()
        XCTAssertEqual(harness.events.compactMap(logText), ["asked 1", "asked 2", "asked 3"],
                       "going back replays a generated segment; the generator is not asked again")
        XCTAssertEqual(harness.events.compactMap(startedName), ["G1", "G2", "G1", "G2", "G3"])
        XCTAssertEqual(session.summary?.segmentsDone, 3)
        XCTAssertEqual(session.summary?.segmentsSkipped, 0, "the skip was undone by going back")
        XCTAssertEqual(session.summary?.elapsed, 4 + 15 + 10 + 10)
    }

    func testANeverEndingGeneratorStopsAtTheHorizon() throws {
        let routine = try load("""
            return workout { name = "Forever", generate(function()
              while true do coroutine.yield(work(30)) end
            end), cooldown(10) }
            """)
        routine.horizon = 5
        let harness = Harness(routine)
        harness.run()
        XCTAssertEqual(harness.events.filter { $0.name == "segment_start" }.count, 5)
        XCTAssertEqual(harness.trace.last, "150 workout_end false 150 5")
        XCTAssertTrue(routine.timeline.reachedHorizon)
        XCTAssertEqual(harness.session.summary?.segments, 5, "an open-ended summary counts the segments reached")
        XCTAssertEqual(routine.liveReferences, 0, "the run released every reference")
    }

    func testAGeneratorInRoundsRunsAfreshEachRoundInsideItsBlock() throws {
        let routine = try load("""
            return workout { name = "Rounds",
              rounds(2, { generate(function(run)
                coroutine.yield(work(5, "at " .. run.index), rounds(2, { rest(1) }, { name = "Inner" }))
              end), work(3, "Fixed") }, { name = "Outer" }),
            }
            """)
        XCTAssertEqual(routine.expand(horizon: 100), [])
        XCTAssertEqual(routine.timeline.segments.map { "\($0.name) \($0.round ?? 0)/\($0.rounds ?? 0) \($0.block ?? "-")" }, [
            "at 1 1/2 Outer", "Rest 1/2 Inner", "Rest 2/2 Inner", "Fixed 1/2 Outer",
            "at 5 2/2 Outer", "Rest 1/2 Inner", "Rest 2/2 Inner", "Fixed 2/2 Outer",
        ])
        XCTAssertEqual(routine.timeline.segments.map(\.start), [0, 5, 6, 7, 10, 15, 16, 17])
        XCTAssertTrue(routine.timeline.isComplete)
    }

    func testStepsMadeWhileLoadingAndPayloadsMadeInTheGeneratorBothWork() throws {
        let harness = try Harness("""
            local pushups = work(10, "Push-ups", { reps = 10 })
            return workout { name = "Payloads", generate(function()
              coroutine.yield(pushups)
              coroutine.yield(rest(5, "Breathe", { round = 2 }))
            end) }
            """)
        harness.run()
        let infos = harness.events.compactMap { event -> String? in
            if case let .segmentStart(_, info) = event.kind { return info.text }
            return nil
        }
        XCTAssertEqual(infos, [#"{"reps":10}"#, #"{"round":2}"#])
    }

    func testAGeneratorThatGivesNothingMakesAnEmptyWorkout() throws {
        let harness = try Harness("return workout { name = \"Empty\", generate(function() end) }")
        XCTAssertEqual(harness.run(), ["0 workout_start Empty open-ended", "0 workout_end true 0 0"])
    }

    func testPlanRunsNoHooksAndActionsDoNothing() throws {
        let routine = try load("""
            local hooked = 0
            return workout { name = "Plan", warmup(60), generate(function(run)
              while run.elapsed < 150 do
                bell(); say("hi"); skip(); print("planning")
                coroutine.yield(work(30, "hooked " .. hooked))
              end
            end), on_segment_end = function() hooked = hooked + 1 end }
            """)
        XCTAssertEqual(routine.expand(horizon: 1_000), [])
        XCTAssertEqual(routine.timeline.segments.map(\.name), ["Warmup", "hooked 0", "hooked 0", "hooked 0"])
        XCTAssertEqual(routine.timeline.duration, 150, "run.elapsed is the planned time")
        XCTAssertFalse(routine.timeline.reachedHorizon)
    }

    func testARoutineResumingTheGeneratorItselfDoesNotConfuseTheEngine() throws {
        let harness = try Harness("""
            local co
            return workout { name = "Meddle", generate(function()
              co = coroutine.running()
              coroutine.yield(work(5, "A"))
              coroutine.yield(work(5, "B"))
              coroutine.yield(work(5, "C"))
            end), rest(1, "After"),
            on_segment_start = function(seg) if seg.name == "A" then coroutine.resume(co) coroutine.resume(co) end end }
            """)
        harness.run()
        XCTAssertEqual(harness.events.compactMap(startedName), ["A", "After"])
        XCTAssertEqual(harness.session.summary?.completed, true)
    }

    func testActionsCalledByAGeneratorBeforeTheFirstSegmentAreHarmless() throws {
        // The generator runs while nothing runs yet: extend() has no segment to act on,
        // and the session reading the timeline (for the voice) while the generator adds
        // to it must not trip Swift's exclusive access.
        let harness = try Harness("""
            return workout { name = "Early", generate(function()
              extend(10); bell(); print("first")
              coroutine.yield(work(30, "A"))
            end) }
            """, options: SessionOptions(bell: false, voice: true))
        harness.run()
        XCTAssertEqual(harness.trace.filter { $0.contains("segment") || $0.contains("log") || $0.contains("workout_end") }, [
            "0 log first", "0 segment_start 1 A", "30 segment_end 1", "30 workout_end true 30 1",
        ])
    }

    func testAFixedRoutineIsNotOpenEnded() throws {
        let harness = try Harness("return workout { name = \"Fixed\", work(5), rest(5) }")
        harness.run()
        XCTAssertEqual(harness.events[0].json.text,
                       #"{"event":"workout_start","t":0,"name":"Fixed","segments":2,"duration":10,"speed":1}"#)
        XCTAssertFalse(harness.session.routine.timeline.isOpenEnded)
    }

    func testGenerateTakesOneFunction() {
        XCTAssertEqual(loadError("return workout { name = \"G\", generate(5) }"),
                       "test.lua:1: generate: its argument must be a function that yields steps: "
                       + "generate(function() coroutine.yield(work(20)) end), got 5")
        XCTAssertEqual(loadError("return workout { name = \"G\", generate(function() end, 2) }"),
                       "test.lua:1: generate: takes at most 1 argument, got 2")
    }

    private func startedName(_ event: Event) -> String? {
        if case let .segmentStart(segment, _) = event.kind { return segment.name }
        return nil
    }

    private func logText(_ event: Event) -> String? {
        if case let .log(text) = event.kind { return text }
        return nil
    }
}
