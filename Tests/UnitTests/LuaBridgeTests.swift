import TestSupport
import XCTest
@testable import IntervalEngine

/// The bridge's bookkeeping: registry references, the Lua stack, hook errors, and the
/// session's lifetime.
final class LuaBridgeTests: XCTestCase {
    static let hooked = """
        return workout { name = "Hooks",
          segment { kind = "work", duration = 10, info = { a = 1 }, cues = { [2] = function() end, half = "half" },
                    on_start = function() end, on_end = function() end },
          rest(5, { b = 2 }),
          on_start = function() end, on_segment_start = function() end, on_segment_end = function() end,
          on_pause = function() end, on_resume = function() end, on_finish = function() end }
        """

    func testReferencesGoBackToZeroWhenTheSessionStops() throws {
        let routine = try load(Self.hooked)
        // Two payloads, one cue function, two segment hooks, six workout hooks.
        XCTAssertEqual(routine.liveReferences, 11)
        let harness = Harness(routine)
        harness.run()
        XCTAssertEqual(routine.liveReferences, 0)
    }

    func testReferencesGoBackToZeroWhenStoppedEarly() throws {
        let routine = try load(Self.hooked)
        let harness = Harness(routine)
        harness.session.start()
        harness.clock.advance(by: 3)
        harness.session.stop()
        XCTAssertEqual(routine.liveReferences, 0)
    }

    func testEveryHookCallLeavesTheStackAsItWas() throws {
        let routine = try load(Self.hooked.replacingOccurrences(of: "on_end = function() end",
                                                          with: "on_end = function() error('x') end"))
        let before = routine.luaStackHeight
        let harness = Harness(routine)
        harness.session.start()
        harness.clock.advance(by: 4)
        harness.session.pause()
        harness.session.resume()
        XCTAssertEqual(routine.luaStackHeight, before)
        harness.clock.run()
        XCTAssertEqual(routine.luaStackHeight, before)
        XCTAssertEqual(harness.trace.filter { $0.contains("error") }, ["10 error on_end"])
    }

    func testTheSessionDeallocatesAfterStop() throws {
        // The scheduler lives on the main thread, where XCTest runs the test.
        try MainActor.assumeIsolated {
            weak var weakSession: Session?
            weak var weakScheduler: RunLoopScheduler?
            try {
                let scheduler = RunLoopScheduler(speed: 1)
                let session = Session(routine: try load(Self.hooked), scheduler: scheduler)
                session.start()
                XCTAssertGreaterThan(scheduler.pendingCount, 0)
                session.stop()
                XCTAssertEqual(scheduler.pendingCount, 0)
                weakSession = session
                weakScheduler = scheduler
            }()
            XCTAssertNil(weakSession, "nothing (timer, Lua state, closure) keeps a stopped session alive")
            XCTAssertNil(weakScheduler)
        }
    }

    func testAFailingHookIsReportedWithItsTracebackAndDisabled() throws {
        let harness = try Harness("""
            local function explode(seg)
              local t = nil
              return t.field
            end
            return workout { name = "Err", rounds(3, { work(10) }),
              on_segment_start = function(seg) print("start " .. seg.index) if seg.index == 2 then explode(seg) end end,
              on_segment_end = function(seg) print("end " .. seg.index) end }
            """)
        harness.run()
        XCTAssertEqual(harness.trace.filter { $0.contains("log") || $0.contains("error") }, [
            "0 log start 1", "10 log end 1", "10 log start 2", "10 error on_segment_start", "20 log end 2",
            "30 log end 3",
        ])
        guard case let .error(message, hook, traceback)? = harness.events.first(where: { $0.name == "error" })?.kind else {
            return XCTFail("no error event")
        }
        XCTAssertEqual(message, "test.lua:3: attempt to index a nil value (local 't')")
        XCTAssertEqual(hook, "on_segment_start")
        XCTAssertTrue(traceback?.hasPrefix("stack traceback:") == true, traceback ?? "nil")
        XCTAssertTrue(traceback?.contains("test.lua:3: in upvalue 'explode'\n\ttest.lua:6: in function") == true, traceback ?? "nil")
        XCTAssertEqual(harness.session.summary?.completed, true, "the timer keeps going")
    }

    func testAnErrorInACueFunctionDisablesOnlyThatCue() throws {
        let harness = try Harness("""
            return workout { name = "Cue err",
              rounds(2, { segment { kind = "work", duration = 10,
                cues = { [1] = function() error("bad cue") end, [2] = function() print("fine") end } } }) }
            """)
        XCTAssertEqual(harness.run().filter { $0.contains("log") || $0.contains("error") },
                       ["1 error cue", "2 log fine", "12 log fine"])
    }

    func testPrintUsesTostringAndTabs() throws {
        let harness = try Harness("""
            local t = setmetatable({}, { __tostring = function() return "custom" end })
            return workout { name = "Print", work(1), on_start = function() print(1, 2.5, nil, true, t) end }
            """)
        XCTAssertEqual(harness.run()[1], "0 log 1\t2.5\tnil\ttrue\tcustom")
    }

    func testAnErroringTostringInPrintIsAHookError() throws {
        let harness = try Harness("""
            local t = setmetatable({}, { __tostring = function() error("no") end })
            return workout { name = "Print", work(1), on_start = function() print(t) end }
            """)
        XCTAssertEqual(harness.run()[1], "0 error on_start")
    }

    func testAHookCanYieldInACoroutineOfItsOwn() throws {
        let harness = try Harness("""
            return workout { name = "Co", work(1),
              on_start = function()
                local co = coroutine.wrap(function() bell() coroutine.yield(1) print("resumed") end)
                co() co()
              end }
            """, options: SessionOptions(bell: true))
        XCTAssertEqual(Array(harness.run()[1...2]), ["0 bell", "0 log resumed"])
    }

    func testSandboxHidesWhatARoutineMustNotReach() throws {
        let routine = try load("""
            local seen = {}
            for _, name in ipairs({ "io", "debug", "package", "require", "dofile", "loadfile" }) do
              seen[#seen + 1] = name .. "=" .. type(_G[name])
            end
            for _, name in ipairs({ "execute", "exit", "getenv", "remove", "rename", "time", "clock", "date", "difftime" }) do
              seen[#seen + 1] = name .. "=" .. type(os[name])
            end
            local ok, err = pcall(load, string.dump(function() end))
            seen[#seen + 1] = "binary=" .. tostring(select(2, load(string.dump(function() end))))
            print(table.concat(seen, " "))
            return workout { name = "Sandbox", work(1) }
            """)
        XCTAssertEqual(routine.loadLog, ["""
            io=nil debug=nil package=nil require=function dofile=nil loadfile=nil execute=nil exit=nil getenv=nil \
            remove=nil rename=nil time=function clock=function date=function difftime=function \
            binary=attempt to load a binary chunk (mode is 't')
            """])
    }
}
