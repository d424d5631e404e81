import TestSupport
import XCTest
@testable import IntervalEngine
@testable import LuaBridge

/// A limit, once hit, stays hit: whatever catches the error (`pcall`, `xpcall`, a
/// coroutine, a `__close` handler), every further instruction of the call raises it
/// again until the engine has the call back, so only the watchdog's single C call is
/// left to it. Small budgets keep each test short.
final class StickyLimitTests: XCTestCase {
    private let small = LuaLimits(loadInstructions: 200_000, hookInstructions: 50_000, loadSeconds: 30, hookSeconds: 30,
                                  memory: 8 * 1024 * 1024)

    private func loadFailure(_ source: String, limits: LuaLimits? = nil) -> String? {
        do {
            _ = try RoutineLoader.load(source: source, fileName: "sticky.lua", limits: limits ?? small)
            return nil
        } catch {
            return error.message
        }
    }

    func testCatchingTheInstructionLimitDoesNotGoOn() {
        let cases = [
            "pcall": "local n = 0\nwhile true do\n  pcall(function() while true do n = n + 1 end end)\nend",
            "coroutine": "while true do\n  pcall(coroutine.wrap(function() while true do end end))\nend",
            "nested coroutines": "while true do pcall(coroutine.wrap(function()\n  while true do pcall(coroutine.wrap(function() while true do end end)) end\nend)) end",
            "xpcall handler": "while true do\n  xpcall(function() while true do end end, function() while true do end end)\nend",
            "__close": "while true do pcall(function()\n  local x <close> = setmetatable({}, { __close = function() while true do end end })\n  while true do end\nend) end",
            "error object": "while true do\n  pcall(error, setmetatable({}, { __tostring = function() while true do end end }))\nend",
            "library callback": "while true do\n  pcall(string.gsub, string.rep('a', 99), '.', function() while true do end end)\nend",
        ]
        for (name, source) in cases {
            let message = loadFailure(source)
            XCTAssertNotNil(message, name)
            XCTAssertTrue(message?.hasPrefix("sticky.lua:") == true, "\(name): \(message ?? "")")
            XCTAssertTrue(message?.hasSuffix(": instruction limit reached (an endless loop?)") == true, "\(name): \(message ?? "")")
        }
    }

    func testCatchingTheMemoryAndTimeLimitsDoesNotGoOn() {
        let memory = loadFailure("""
            while true do
              pcall(function() local t = {} for i = 1, 1e9 do t[i] = { i } end end)
            end
            """, limits: LuaLimits(loadInstructions: 1_000_000_000, memory: 4 * 1024 * 1024))
        XCTAssertEqual(memory?.hasSuffix("memory limit of 4 MiB reached"), true, memory ?? "")
        // Strings of 64 KiB: the count hook looks at the clock every 1,000 instructions, and
        // 250 concatenations of 1 MiB between two looks took over the watchdog's extra second
        // under AddressSanitizer on a busy machine (the watchdog, not the limit, ended the test).
        let time = loadFailure("""
            local s = string.rep("x", 64 * 1024)
            while true do
              pcall(function() while true do local t = s .. "y" end end)
            end
            """, limits: LuaLimits(loadInstructions: 1_000_000_000, loadSeconds: 0.3))
        XCTAssertEqual(time?.hasPrefix("sticky.lua:"), true, time ?? "")
        XCTAssertEqual(time?.hasSuffix("time limit of 0.3 s reached (an endless loop?)"), true, time ?? "")
    }

    /// In a hook: that hook alone is switched off, with the routine's line; the workout
    /// goes on and later hooks run with a fresh budget.
    func testAHookThatCatchesItsLimitIsSwitchedOffAndTheWorkoutGoesOn() throws {
        let routine = try load("""
            local calls = 0
            return workout { name = "Catcher", rounds(3, { work(5) }),
              on_segment_start = function(seg)
                calls = calls + 1
                while true do pcall(function() while true do end end) end
              end,
              on_segment_end = function(seg) local n = 0 for i = 1, 10000 do n = n + i end print("end " .. seg.index .. " " .. calls) end }
            """, limits: small)
        let harness = Harness(routine)
        let trace = harness.run()
        XCTAssertEqual(trace.filter { $0.contains("error") }, ["0 error on_segment_start"])
        XCTAssertEqual(trace.filter { $0.contains("log") }, ["5 log end 1 1", "10 log end 2 1", "15 log end 3 1"])
        XCTAssertEqual(harness.session.summary?.completed, true)
        guard case let .error(message, _, _)? = harness.events.first(where: { $0.name == "error" })?.kind else {
            return XCTFail("no error")
        }
        XCTAssertEqual(message, "test.lua:5: instruction limit reached (an endless loop?)")
    }

    /// A generator resumes in a coroutine: a limit reached in one resume does not leave the
    /// next resume (or the next generator) running a hook per instruction, which would
    /// spend its budget a thousand times too fast.
    func testAfterALimitTheNextCallHasItsWholeBudget() throws {
        let routine = try load("""
            local trips = 0
            return workout { name = "Again",
              generate(function()
                for i = 1, 3 do
                  local n = 0
                  for j = 1, 10000 do n = n + j end
                  coroutine.yield(work(1, "Step " .. i))
                end
              end),
              on_segment_start = function(seg)
                if seg.index == 1 then while true do pcall(function() while true do end end) end end
              end }
            """, limits: small)
        let harness = Harness(routine)
        let trace = harness.run()
        XCTAssertEqual(trace.filter { $0.contains("error") }, ["0 error on_segment_start"])
        XCTAssertEqual(trace.filter { $0.contains(" segment_start ") }, ["0 segment_start 1 Step 1", "1 segment_start 2 Step 2",
                                                                       "2 segment_start 3 Step 3"])
    }

    func testXpcallStillWorksAsLuaDocumentsIt() throws {
        let harness = try Harness("""
            return workout { name = "X", work(1), on_start = function()
              print(xpcall(function(a) error("bad " .. a) end, function(m) return "handled: " .. m end, 1))
              print(xpcall(function(a, b) return a + b, "two" end, print, 1, 2))
              print(pcall(xpcall, print))
            end }
            """)
        XCTAssertEqual(harness.run().filter { $0.contains("log") }, [
            "0 log false\thandled: test.lua:2: bad 1",
            "0 log true\t3\ttwo",
            "0 log false\tbad argument #2 to 'xpcall' (function expected, got nil)",
        ])
    }
}
