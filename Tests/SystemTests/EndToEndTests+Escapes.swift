import Foundation
import XCTest

/// No escape reaches the terminal from any source: program names read back from the
/// history, file names in messages, `--set` names and values, a programs directory's
/// file names, ArgumentParser's own messages. Each is shown escaped (`\27[2J`).
extension EndToEndTests {
    /// A clear screen, a window title (OSC ending in BEL) and a C1 CSI.
    private var hostile: String { "\u{1B}[2J\u{1B}]0;pwned\u{07}\u{9B}31m" }

    /// The text holds no control character a terminal would act on (tabs and newlines
    /// aside), C1 included.
    private func assertNothingRaw(_ text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let raw = text.unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value)
        }
        XCTAssertTrue(raw.isEmpty, "\(what) holds \(raw.map { String($0.value, radix: 16) }): \(text.debugDescription)",
                      file: file, line: line)
    }

    private func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("workout-escapes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    func testProgramNamesFromTheHistoryAreShownEscaped() throws {
        let data = try scratch()
        try FileManager.default.createDirectory(at: data.appendingPathComponent("workout"), withIntermediateDirectories: true)
        let name = "Evil" + hostile
        let quoted = name.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
            ? String(format: "\\u%04x", $0.value) : String($0) }.joined()
        try (#"{"program":"\#(quoted)","file":"/e.lua","sha256":"","started":"2026-11-20T10:00:00Z","ended":"2026-11-20T10:10:00Z","completed":true,"elapsed":600,"segments_done":2,"segments":2,"work_seconds":300}"# + "\n")
            .write(to: data.appendingPathComponent("workout/history.jsonl"), atomically: false, encoding: .utf8)
        let text = try workout(["history"], environment: ["XDG_DATA_HOME": data.path])
        XCTAssertEqual(text.status, 0, text.stderr)
        assertNothingRaw(text.stdout, "history")
        // The list cuts a long name to its column: its start is enough to see the escapes.
        XCTAssertTrue(text.stdout.contains(#"Evil\27[2J\27]0;pwn"#), text.stdout)
        let json = try workout(["history", "--json"], environment: ["XDG_DATA_HOME": data.path])
        assertNothingRaw(json.stdout, "history --json")
        XCTAssertTrue(json.stdout.contains(#"Evil\u001b[2J\u001b]0;pwned\u0007\u009b31m"#), json.stdout)
    }

    func testFileNamesInMessagesAreShownEscaped() throws {
        let directory = try scratch()
        let missing = directory.appendingPathComponent("gone\(hostile).lua").path
        let run = try workout(["run", missing])
        XCTAssertEqual(run.status, 1)
        assertNothingRaw(run.stderr, "run's error")
        XCTAssertTrue(run.stderr.contains(#"gone\27[2J"#), run.stderr)
        let broken = directory.appendingPathComponent("bad\(hostile).lua")
        try "return workout {".write(to: broken, atomically: false, encoding: .utf8)
        let good = directory.appendingPathComponent("good\(hostile).lua")
        try #"return workout { name = "Good", work(1) }"#.write(to: good, atomically: false, encoding: .utf8)
        let check = try workout(["check", broken.path, good.path])
        XCTAssertEqual(check.status, 1)
        assertNothingRaw(check.stderr, "check's error")
        assertNothingRaw(check.stdout, "check's report")
        XCTAssertTrue(check.stderr.contains(#"bad\27[2J"#), check.stderr)
        XCTAssertTrue(check.stdout.contains(#"good\27[2J"#), check.stdout)
    }

    func testSetNamesAndValuesAreShownEscaped() throws {
        let badName = try workout(["plan", "tabata", "--set", hostile + "=4"])
        XCTAssertEqual(badName.status, 64)
        assertNothingRaw(badName.stderr, "--set's usage error")
        XCTAssertTrue(badName.stderr.contains(#"\27[2J"#), badName.stderr)
        let unknown = try workout(["plan", "tabata", "--set", "round=" + hostile])
        XCTAssertEqual(unknown.status, 64)
        assertNothingRaw(unknown.stderr, "an unknown --set")
        let directory = try scratch()
        let routine = directory.appendingPathComponent("say.lua")
        try """
            local p = params { word = { default = "hi", help = "what to say" } }
            return workout { name = "Say", work(1, "Talk") }
            """.write(to: routine, atomically: false, encoding: .utf8)
        let plan = try workout(["plan", routine.path, "--set", "word=" + hostile])
        XCTAssertEqual(plan.status, 0, plan.stderr)
        assertNothingRaw(plan.stdout, "plan")
        XCTAssertTrue(plan.stdout.contains(#"\27[2J"#), plan.stdout)
        let badValue = try workout(["run", "demo", "--speed", hostile])
        XCTAssertEqual(badValue.status, 64)
        assertNothingRaw(badValue.stderr, "ArgumentParser's own message")
    }

    func testFileNamesInAProgramsDirectoryAreListedEscaped() throws {
        let config = try scratch()
        let programs = config.appendingPathComponent("workout/programs")
        try FileManager.default.createDirectory(at: programs, withIntermediateDirectories: true)
        try #"return workout { name = "Fine", work(1) }"#
            .write(to: programs.appendingPathComponent("ok\(hostile).lua"), atomically: false, encoding: .utf8)
        try "return nil".write(to: programs.appendingPathComponent("no\(hostile).lua"), atomically: false, encoding: .utf8)
        // The directory's own name, shown in the heading, holds an escape too.
        try FileManager.default.createDirectory(at: config.appendingPathComponent("\u{1B}[2J"), withIntermediateDirectories: true)
        let list = try workout(["list"], environment: ["XDG_CONFIG_HOME": config.path + "/\u{1B}[2J/.."])
        assertNothingRaw(list.stdout, "list")
        assertNothingRaw(list.stderr, "list's errors")
        XCTAssertTrue(list.stdout.contains(#"ok\27[2J"#), list.stdout)
        XCTAssertTrue(list.stdout.contains(#"no\27[2J"#), list.stdout)
    }
}
