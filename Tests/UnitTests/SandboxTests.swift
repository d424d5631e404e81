import Foundation
import TestSupport
import XCTest
@testable import IntervalEngine
@testable import LuaBridge

/// What a routine can reach beyond the bad corpus: `require` from its own directory,
/// finalizers, and the ways around the limits that need more than one file.
final class SandboxTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("workout-sandbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func write(_ name: String, _ text: String) throws {
        try text.write(to: directory.appendingPathComponent(name), atomically: false, encoding: .utf8)
    }

    private func loadFile(_ name: String) throws(RoutineError) -> Routine {
        try RoutineLoader.load(path: directory.appendingPathComponent(name).path)
    }

    private func loadFileError(_ name: String) -> String? {
        do {
            _ = try loadFile(name)
            return nil
        } catch {
            return error.message
        }
    }

    func testRequireLoadsAModuleBesideTheRoutineOnceAndSandboxed() throws {
        try write("helpers.lua", """
            print("loading helpers, io is " .. type(io) .. ", os.getenv is " .. type(os.getenv))
            local M = {}
            function M.interval(seconds) return work(seconds, "Interval") end
            return M
            """)
        try write("main.lua", """
            local h = require "helpers"
            local again = require("helpers")
            print(h == again)
            return workout { name = "Modules", h.interval(20), h.interval(30) }
            """)
        let routine = try loadFile("main.lua")
        XCTAssertEqual(routine.loadLog, ["loading helpers, io is nil, os.getenv is nil", "true"])
        XCTAssertEqual(routine.timeline.segments.map(\.duration), [20, 30])
    }

    func testAModuleThatReturnsNothingGivesTrue() throws {
        try write("side.lua", "shared_value = 7")
        try write("main.lua", """
            print(tostring(require "side") .. " " .. shared_value)
            return workout { name = "x", work(1) }
            """)
        XCTAssertEqual(try loadFile("main.lua").loadLog, ["true 7"])
    }

    func testErrorsInsideAModuleNameTheModulesLine() throws {
        try write("broken.lua", "local x = 1\nreturn work(0)")
        try write("main.lua", "local b = require 'broken'\nreturn workout { name = 'x', b }")
        XCTAssertEqual(loadFileError("main.lua"), "broken.lua:2: work: duration must be more than 0 seconds, got 0")
        try write("syntax.lua", "local = 1")
        try write("main2.lua", "\nlocal s = require 'syntax'")
        XCTAssertEqual(loadFileError("main2.lua"), "main2.lua:2: syntax.lua:1: <name> expected near '='")
    }

    func testAModuleCycleIsAnError() throws {
        try write("a.lua", "local b = require 'b'\nreturn b")
        try write("b.lua", "\nlocal a = require 'a'\nreturn a")
        try write("main.lua", "return require 'a'")
        XCTAssertEqual(loadFileError("main.lua"), "b.lua:2: require: \"a\" requires itself (a cycle of modules)")
        // Tail calls leave no frame to name; the error still names the routine.
        try write("a.lua", "return require 'b'")
        try write("b.lua", "\nreturn require 'a'")
        XCTAssertEqual(loadFileError("main.lua"), "main.lua: require: \"a\" requires itself (a cycle of modules)")
    }

    func testAFailedRequireCanBeRetriedFromAHook() throws {
        // The failed load does not leave the module marked as loading.
        try write("flaky.lua", "counter = (counter or 0) + 1\nif counter == 1 then error('first time') end\nreturn 'ok'")
        try write("main.lua", """
            return workout { name = "x", rounds(2, { work(1) }),
              on_segment_start = function(seg)
                if seg.index == 1 then pcall(require, "flaky") else print(require "flaky") end
              end }
            """)
        let harness = Harness(try loadFile("main.lua"))
        XCTAssertEqual(harness.run().filter { $0.contains("log") || $0.contains("error") }, ["1 log ok"])
    }

    func testRequireRefusesWhatIsNotAPlainFileInTheDirectory() throws {
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("dir.lua"),
                                                withIntermediateDirectories: true)
        try write("main.lua", "require 'dir'")
        XCTAssertEqual(loadFileError("main.lua"), "main.lua:1: require: dir.lua is not a regular file")
        // A FIFO would block the load forever if it were opened.
        XCTAssertEqual(mkfifo(directory.appendingPathComponent("fifo.lua").path, 0o600), 0)
        try write("main.lua", "require 'fifo'")
        XCTAssertEqual(loadFileError("main.lua"), "main.lua:1: require: fifo.lua is not a regular file")
        // A link that stays in the directory is fine; one that leaves it is not.
        try write("real.lua", "return 5")
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("alias.lua").path,
                                                   withDestinationPath: "real.lua")
        try write("main.lua", "print(require 'alias')\nreturn workout { name = 'x', work(1) }")
        XCTAssertEqual(try loadFile("main.lua").loadLog, ["5"])
        let outside = directory.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try "return 1".write(to: outside.appendingPathComponent("deeper.lua"), atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("deeper.lua").path,
                                                   withDestinationPath: "sub/deeper.lua")
        try write("main.lua", "require 'deeper'")
        XCTAssertEqual(loadFileError("main.lua"), "main.lua:1: require: deeper.lua leads outside the routine's directory")
    }

    func testARoutineGivenAsTextCanRequireNothing() {
        XCTAssertEqual(loadError("require 'helpers'"),
                       "test.lua:1: require: cannot load helpers.lua: this routine was not loaded from a file")
    }

    func testAFinalizerAddedAfterSetmetatableNeverRuns() throws {
        // Lua marks an object for finalization only when its metatable has __gc at
        // setmetatable time, and the sandbox refuses that; a __gc added later is inert,
        // so closing the state (which would run finalizers with hooks off) cannot hang.
        var routine: Routine? = try load("""
            local mt = {}
            local keep = setmetatable({}, mt)
            mt.__gc = function() while true do end end
            setmetatable({}, { __index = mt })
            getmetatable("").__gc = function() while true do end end
            return workout { name = "x", work(1) }
            """)
        XCTAssertNotNil(routine)
        routine = nil  // lua_close runs here; the test finishing proves it did not hang
    }

    func testLoadForcesTextModeEvenWhenAskedForBinary() throws {
        let routine = try load("""
            local f = load("return 42", "chunk", "b")
            print(f())
            return workout { name = "x", work(1) }
            """)
        XCTAssertEqual(routine.loadLog, ["42"])
    }

    func testAnEndlessToStringInAnErrorObjectDoesNotHang() {
        XCTAssertEqual(loadError("error(setmetatable({}, { __tostring = function() while true do end end }))"),
                       "test.lua:1: instruction limit reached (an endless loop?)")
    }

    func testAnEndlessCloseHandlerDuringAnErrorIsStopped() {
        let message = loadError("""
            do
              local guard <close> = setmetatable({}, { __close = function() while true do end end })
              error("first")
            end
            """)
        XCTAssertEqual(message, "test.lua:2: instruction limit reached (an endless loop?)")
    }

    func testInfoNestedDeeperThanJSONShowsIsCutNotACrash() throws {
        // Swift pushes on the Lua stack outside any C function, where Lua checks
        // nothing: a deep payload once overflowed the stack and corrupted memory.
        let routine = try load("""
            local t = {}
            for i = 1, 200 do t = { t } end
            return workout { name = "x", work(1, "Deep", t) }
            """)
        var text = ""
        routine.infoJSON(for: routine.timeline.segments[0]).write(to: &text)
        XCTAssertTrue(text.hasPrefix(String(repeating: "[", count: 32)), text)
        XCTAssertTrue(text.contains("\"<cycle>\""), text)
    }

    func testPrintedEscapeSequencesReachTheTerminalEscaped() throws {
        let harness = try Harness("""
            return workout { name = "x", work(1),
              on_start = function() print("\\27]52;c;c2VjcmV0\\7clear\\27[2J\\nnext\\tline") say("\\u{9B}31m") end }
            """)
        harness.run()
        XCTAssertEqual(PlainText.line(harness.events[1]), "0:00.0  print: \\27]52;c;c2VjcmV0\\7clear\\27[2J\\nnext\tline")
        XCTAssertEqual(PlainText.line(harness.events[2]), "0:00.0  say: \\15531m")
        // JSON keeps the text as it is, escaped the JSON way.
        XCTAssertEqual(harness.events[1].json["text"], .string("\u{1B}]52;c;c2VjcmV0\u{07}clear\u{1B}[2J\nnext\tline"))
    }

    func testABlockReusedAtEveryLevelIsCountedWithoutWalkingIt() {
        // 2^90 segments: counted from each block's own total, not by walking the tree.
        let started = Date()
        XCTAssertEqual(loadError("""
            local s = work(1)
            for i = 1, 90 do s = rounds(1, { s, s }) end
            return workout { name = "x", s }
            """), "test.lua:3: workout: unrolls to more than 1000000 segments")
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
    }
}
