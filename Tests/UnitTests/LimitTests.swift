import TestSupport
import XCTest
@testable import IntervalEngine
@testable import LuaBridge

/// An endless loop or a memory bomb ends with a clear error instead of a hung or
/// exhausted machine, at load time and in hooks.
final class LimitTests: XCTestCase {
    func testAnEndlessLoopWhileLoadingIsStoppedAtItsLine() {
        XCTAssertEqual(loadError("local n = 0\nwhile true do n = n + 1 end"),
                       "test.lua:2: instruction limit reached (an endless loop?)")
    }

    func testAMemoryBombWhileLoadingIsStopped() {
        XCTAssertEqual(loadError("local s = string.rep('x', 200 * 1024 * 1024)"),
                       "test.lua: memory limit of 64 MiB reached")
        // A Lua loop is stopped by the count hook, which knows the line; a single
        // library call (string.rep above) is stopped by the allocator, which does not.
        XCTAssertEqual(loadError("local t = {}\nfor i = 1, 1e9 do t[i] = { i } end"),
                       "test.lua:2: memory limit of 64 MiB reached")
    }

    func testGarbageDoesNotCountAgainstTheCap() throws {
        // 100 times the cap in short-lived strings: the hook collects before deciding.
        let routine = try load("""
            local n = 0
            for i = 1, 400 do n = n + #(string.rep("x", 256 * 1024) .. i) end
            return workout { name = "Churn", work(1) }
            """, limits: LuaLimits(memory: 8 * 1024 * 1024))
        XCTAssertEqual(routine.name, "Churn")
    }

    func testExpensiveInstructionsAreStoppedByTime() {
        // Each concatenation copies a megabyte, so the instruction budget alone would
        // take hours to run out: the time limit stops it.
        let started = Date()
        XCTAssertThrowsError(try RoutineLoader.load(source: """
            local s = string.rep("x", 1024 * 1024)
            while true do local t = s .. "y" end
            """, fileName: "slow.lua", limits: LuaLimits(loadSeconds: 0.3))) {
            XCTAssertEqual(($0 as? RoutineError)?.message, "slow.lua:2: time limit of 0.3 s reached (an endless loop?)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    }

    func testASlowHookIsStoppedByTimeAndDisabled() throws {
        let harness = Harness(try load("""
            local s = string.rep("x", 1024 * 1024)
            return workout { name = "Slow", rounds(2, { work(1) }),
              on_segment_start = function() while true do local t = s .. "y" end end }
            """, limits: LuaLimits(hookSeconds: 0.2)))
        XCTAssertEqual(harness.run().filter { $0.contains("error") }, ["0 error on_segment_start"])
        guard case let .error(message, _, _)? = harness.events.first(where: { $0.name == "error" })?.kind else {
            return XCTFail("no error")
        }
        XCTAssertEqual(message, "test.lua:3: time limit of 0.2 s reached (an endless loop?)")
    }

    func testLimitsAreConfigurable() throws {
        let small = LuaLimits(loadInstructions: 50_000, hookInstructions: 10_000, memory: 1024 * 1024)
        XCTAssertThrowsError(try RoutineLoader.load(source: "local s = string.rep('x', 2 * 1024 * 1024)",
                                                    fileName: "m.lua", limits: small)) {
            XCTAssertEqual(($0 as? RoutineError)?.message, "m.lua: memory limit of 1 MiB reached")
        }
        XCTAssertThrowsError(try RoutineLoader.load(source: "for i = 1, 100000 do end", fileName: "i.lua", limits: small)) {
            XCTAssertEqual(($0 as? RoutineError)?.message, "i.lua:1: instruction limit reached (an endless loop?)")
        }
        // The same loop fits the default budget.
        XCTAssertNoThrow(try RoutineLoader.load(source: "for i = 1, 100000 do end return workout { name = 'x', work(1) }",
                                                fileName: "i.lua"))
    }

    func testAnEndlessHookIsStoppedDisabledAndTheWorkoutGoesOn() throws {
        let harness = try Harness("""
            return workout { name = "Loop", rounds(2, { work(5) }),
              on_segment_start = function(seg)
                print("start " .. seg.index)
                while true do end
              end }
            """)
        XCTAssertEqual(harness.run(), [
            "0 workout_start Loop 2", "0 segment_start 1 Work", "0 log start 1", "0 error on_segment_start",
            "5 segment_end 1", "5 segment_start 2 Work", "10 segment_end 2", "10 workout_end true 10 2",
        ])
        guard case let .error(message, _, _) = harness.events[3].kind else { return XCTFail("no error") }
        XCTAssertEqual(message, "test.lua:4: instruction limit reached (an endless loop?)")
    }

    func testEachHookCallGetsAFreshBudget() throws {
        // 20 calls that each use about half the per-call budget all pass.
        let harness = try Harness("""
            return workout { name = "Busy", rounds(20, { work(1) }),
              on_segment_start = function() local n = 0 for i = 1, 2000000 do n = n + i end end }
            """)
        XCTAssertEqual(harness.run().filter { $0.contains("error") }, [])
    }

    func testAMemoryBombInAHookIsAnErrorEvent() throws {
        let harness = try Harness("""
            local keep = {}
            return workout { name = "Bomb", work(1),
              on_start = function() for i = 1, 1e9 do keep[i] = string.rep("x", 1024) .. i end end }
            """)
        harness.run()
        guard case let .error(message, hook, _) = harness.events[1].kind else { return XCTFail("\(harness.trace)") }
        XCTAssertEqual(message, "test.lua:3: memory limit of 64 MiB reached")
        XCTAssertEqual(hook, "on_start")
        XCTAssertEqual(harness.session.summary?.completed, true)
    }
}
