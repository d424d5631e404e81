import Foundation
import XCTest
@testable import IntervalEngine
@testable import LuaBridge

/// `workout new`: a starter that runs, a copy that is byte for byte the original, the
/// editor files beside them, and never an overwritten routine.
extension EndToEndTests {
    func temporaryConfig() throws -> URL {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("workout-new-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: config) }
        return config
    }

    func testNewWritesAStarterThatRunsAndTheEditorFiles() throws {
        let config = try temporaryConfig()
        let environment = ["XDG_CONFIG_HOME": config.path]
        let programs = config.appendingPathComponent("workout/programs")
        let result = try workout(["new", "legs"], environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines.first, "Created \(programs.appendingPathComponent("legs.lua").path).")

        let dry = try workout(["run", "legs", "--dry-run", "--json", "--set", "rounds=2"], environment: environment)
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertTrue(dry.lines.first?.contains(#""name":"legs""#) == true, dry.stdout)
        XCTAssertFalse(dry.stdout.contains(#""event":"error""#), dry.stdout)
        XCTAssertTrue(dry.lines.last?.contains(#""completed":true"#) == true, dry.stdout)

        let types = try String(contentsOf: programs.appendingPathComponent("types/workout.lua"), encoding: .utf8)
        XCTAssertEqual(types, LuaLSDefinitions.text())
        XCTAssertEqual(try String(contentsOf: programs.appendingPathComponent(".luarc.json"), encoding: .utf8), LuaLSDefinitions.luarc)
        XCTAssertEqual(try String(contentsOf: programs.appendingPathComponent(".luacheckrc"), encoding: .utf8), LuacheckConfig.text())

        let list = try workout(["list"], environment: environment)
        XCTAssertFalse(list.stdout.contains("does not load"), "the editor files are not routines: \(list.stdout)")
    }

    func testNewNeverOverwrites() throws {
        let config = try temporaryConfig()
        let environment = ["XDG_CONFIG_HOME": config.path]
        let path = config.appendingPathComponent("workout/programs/mine.lua")
        XCTAssertEqual(try workout(["new", "mine"], environment: environment).status, 0)
        try "-- my edits\nreturn workout { name = \"Mine\", work(1) }\n".write(to: path, atomically: false, encoding: .utf8)
        for arguments in [["new", "mine"], ["new", "mine.lua", "--from", "tabata"]] {
            let again = try workout(arguments, environment: environment)
            XCTAssertEqual(again.status, 1, "\(arguments)")
            XCTAssertEqual(again.stderr, "workout: \(path.path) already exists; edit it, or choose another name (workout new NAME)\n")
        }
        XCTAssertEqual(try String(contentsOf: path, encoding: .utf8), "-- my edits\nreturn workout { name = \"Mine\", work(1) }\n")
    }

    func testNewFromCopiesARoutineAndKeepsTheUsersEditorConfig() throws {
        let config = try temporaryConfig()
        let environment = ["XDG_CONFIG_HOME": config.path]
        let programs = config.appendingPathComponent("workout/programs")
        try FileManager.default.createDirectory(at: programs, withIntermediateDirectories: true)
        try "std = \"max\"\n".write(to: programs.appendingPathComponent(".luacheckrc"), atomically: false, encoding: .utf8)
        let result = try workout(["new", "tabata", "--from", "tabata"], environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("It takes the place of the bundled tabata"), result.stdout)
        XCTAssertEqual(try Data(contentsOf: programs.appendingPathComponent("tabata.lua")),
                       try Data(contentsOf: packageRoot.appendingPathComponent("programs/tabata.lua")))
        XCTAssertEqual(try String(contentsOf: programs.appendingPathComponent(".luacheckrc"), encoding: .utf8), "std = \"max\"\n")
    }

    func testNewRejectsBadNamesAndMissingSources() throws {
        let config = try temporaryConfig()
        let environment = ["XDG_CONFIG_HOME": config.path]
        let bad = try workout(["new", "../escape"], environment: environment)
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.contains("NAME may hold letters, digits, - and _ (got '../escape')"), bad.stderr)
        let missing = try workout(["new", "x", "--from", "nosuch"], environment: environment)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.hasPrefix("workout: nosuch: no such routine"), missing.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: config.appendingPathComponent("workout/programs/x.lua").path))
    }
}
