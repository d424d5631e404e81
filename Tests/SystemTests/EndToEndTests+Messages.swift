import Foundation
import XCTest

/// Messages that help, from the command line: empty names, misspelt routines, a copy of
/// something that is not a routine, a helper module among the routines.
extension EndToEndTests {
    func testAnEmptyRoutineNameIsAUsageError() throws {
        for arguments in [["check", ""], ["check", "demo", ""], ["run", ""], ["plan", ""], ["new", "x", "--from", ""]] {
            let result = try workout(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("Error: "), result.stderr)
        }
    }

    func testAMisspeltRoutineNameGetsASuggestion() throws {
        let result = try workout(["run", "tabbata"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.hasPrefix("workout: tabbata: no such routine (did you mean tabata?); looked for a file"),
                      result.stderr)
        let far = try workout(["run", "zzzzzz"])
        XCTAssertFalse(far.stderr.contains("did you mean"), far.stderr)
    }

    func testNewFromSomethingThatIsNotARoutineIsRefused() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("workout-from-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: config) }
        let notes = config.appendingPathComponent("notes.txt")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "buy milk\n".write(to: notes, atomically: false, encoding: .utf8)
        let result = try workout(["new", "mine", "--from", notes.path], environment: ["XDG_CONFIG_HOME": config.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.hasPrefix("workout: --from \(notes.path): not a routine that loads: notes.txt:1: "),
                      result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: config.appendingPathComponent("workout/programs/mine.lua").path))
    }

    func testAHelperModuleIsListedAsAModule() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("workout-module-\(UUID().uuidString)")
        let programs = config.appendingPathComponent("workout/programs")
        try FileManager.default.createDirectory(at: programs, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: config) }
        try "local M = {}\nfunction M.pair(d) return work(d), rest(d / 2) end\nreturn M"
            .write(to: programs.appendingPathComponent("helpers.lua"), atomically: false, encoding: .utf8)
        try #"local h = require "helpers"\#nreturn workout { name = "Uses helpers", h.pair(20) }"#
            .write(to: programs.appendingPathComponent("mine.lua"), atomically: false, encoding: .utf8)
        try "return 42".write(to: programs.appendingPathComponent("odd.lua"), atomically: false, encoding: .utf8)
        let list = try workout(["list"], environment: ["XDG_CONFIG_HOME": config.path])
        XCTAssertEqual(list.status, 0)
        XCTAssertTrue(list.lines.contains(#"  helpers      module (for require "helpers")"#), list.stdout)
        XCTAssertTrue(list.lines.contains { $0.hasPrefix("  mine ") && $0.hasSuffix("Uses helpers") }, list.stdout)
        XCTAssertTrue(list.lines.contains { $0.hasPrefix("  odd          does not load: odd.lua:1: the routine must return") },
                      "a number is not a module: \(list.stdout)")
    }
}
