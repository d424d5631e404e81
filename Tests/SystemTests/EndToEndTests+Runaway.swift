import Foundation
import XCTest

/// One bad routine spoils nothing else: `list` and `check` report a runaway routine as
/// failing, within its limits, and go on with the rest.
extension EndToEndTests {
    /// A programs directory with good routines around two that catch their own limit
    /// errors and would otherwise run until the watchdog ended the whole command.
    private func programsWithRunaways() throws -> URL {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("workout-runaway-\(UUID().uuidString)")
        let programs = config.appendingPathComponent("workout/programs")
        try FileManager.default.createDirectory(at: programs, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: config) }
        let files = [
            "a-good": #"return workout { name = "Good A", work(10) }"#,
            "b-loop": "local n = 0\nwhile true do\n  pcall(function() while true do n = n + 1 end end)\nend",
            "c-good": #"return workout { name = "Good C", work(20) }"#,
            "d-bomb": "while true do\n  pcall(function() local t = {} for i = 1, 1e9 do t[i] = { i } end end)\nend",
            "e-good": #"return workout { name = "Good E", work(30) }"#,
        ]
        for (name, text) in files {
            try text.write(to: programs.appendingPathComponent(name + ".lua"), atomically: false, encoding: .utf8)
        }
        return config
    }

    func testListReportsARunawayRoutineAndListsTheRest() throws {
        let config = try programsWithRunaways()
        let result = try workout(["list", "--max-load-instructions", "20000000", "--max-memory", "8"], environment: ["XDG_CONFIG_HOME": config.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.lines
        for name in ["Good A", "Good C", "Good E"] {
            XCTAssertEqual(lines.filter { $0.contains(name) }.count, 1, result.stdout)
        }
        XCTAssertTrue(lines.contains("  b-loop       does not load: b-loop.lua:3: instruction limit reached (an endless loop?)"),
                      result.stdout)
        XCTAssertTrue(lines.contains("  d-bomb       does not load: d-bomb.lua:2: memory limit of 8 MiB reached"), result.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("  tabata ") }, "the bundled programs follow: \(result.stdout)")
    }

    func testCheckReportsEachRoutineAndFailsForTheRunaway() throws {
        let config = try programsWithRunaways()
        let result = try workout(["check", "a-good", "b-loop", "c-good", "d-bomb", "e-good", "--max-load-instructions", "20000000", "--max-memory", "8"],
                                 environment: ["XDG_CONFIG_HOME": config.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.lines, ["ok  a-good: Good A, 1 segments, 0:10", "ok  c-good: Good C, 1 segments, 0:20",
                                      "ok  e-good: Good E, 1 segments, 0:30"])
        XCTAssertEqual(result.stderr, "workout: b-loop.lua:3: instruction limit reached (an endless loop?)\n"
                       + "workout: d-bomb.lua:2: memory limit of 8 MiB reached\n")
    }
}
