import Foundation
import XCTest

/// The limit options as a user gives them to the built binary.
extension EndToEndTests {
    private func routineFile(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("workout-limits-\(UUID().uuidString).lua")
        try text.write(to: url, atomically: false, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    func testLimitOptionsReachTheLoader() throws {
        let busy = try routineFile("""
            local n = 0
            for i = 1, 100000 do n = n + i end
            local big = string.rep("x", 3 * 1024 * 1024)
            return workout { name = "Busy", work(1) }
            """)
        let name = (busy as NSString).lastPathComponent
        XCTAssertEqual(try workout(["check", busy]).status, 0)
        let tight = try workout(["check", busy, "--max-load-instructions", "50000"])
        XCTAssertEqual(tight.status, 1)
        XCTAssertEqual(tight.stderr, "workout: \(name):2: instruction limit reached (an endless loop?)\n")
        let small = try workout(["plan", busy, "--max-memory", "2"])
        XCTAssertEqual(small.status, 1)
        XCTAssertEqual(small.stderr, "workout: \(name): memory limit of 2 MiB reached\n")
        let run = try workout(["run", busy, "--dry-run", "--max-memory", "2"])
        XCTAssertEqual(run.status, 1)
    }

    func testHookLimitOptionsReachTheSession() throws {
        let loop = try routineFile("""
            return workout { name = "Loop", work(1),
              on_start = function() local n = 0 for i = 1, 100000 do n = n + i end print("done " .. n) end }
            """)
        let fine = try workout(["run", loop, "--dry-run"])
        XCTAssertEqual(fine.status, 0)
        XCTAssertTrue(fine.stdout.contains("print: done 5000050000"), fine.stdout)
        let tight = try workout(["run", loop, "--dry-run", "--max-hook-instructions", "10000"])
        XCTAssertEqual(tight.status, 1, "a hook error makes the run exit 1 after finishing")
        XCTAssertTrue(tight.stdout.contains("error in on_start: \((loop as NSString).lastPathComponent):2: instruction limit reached"),
                      tight.stdout)
        XCTAssertTrue(tight.lines.last?.contains("finished after 0:01") == true, tight.stdout)
    }

    func testLimitOptionsAreCheckedAndDocumented() throws {
        for (flag, value) in [("--max-memory", "0"), ("--max-load-instructions", "10"), ("--max-hook-seconds", "-1")] {
            let result = try workout(["check", "demo", flag, value])
            XCTAssertEqual(result.status, 64, flag)
            XCTAssertTrue(result.stderr.contains(flag), result.stderr)
        }
        let help = try workout(["run", "--help"])
        for flag in ["--max-load-instructions", "--max-hook-instructions", "--max-load-seconds",
                     "--max-hook-seconds", "--max-memory"] {
            XCTAssertTrue(help.stdout.contains(flag), flag)
        }
    }
}

/// A library call that never returns to Lua, which no hook can stop: the watchdog ends
/// the process with a message naming the call and the routine, and the session is still
/// recorded, as not completed.
extension EndToEndTests {
    func testACostlyPatternIsStoppedByTheWatchdog() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("workout-pattern-\(UUID().uuidString).lua")
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("workout-pattern-data-\(UUID().uuidString)")
        addTeardownBlock {
            try? FileManager.default.removeItem(at: url)
            try? FileManager.default.removeItem(at: data)
        }
        let stopping = "inside a library call that cannot be interrupted; stopping\n"
        // In a hook: limit 0.5 s, watchdog at 0.5 + 0.5 + 1 = 2 s, in the second segment.
        try """
            local s = string.rep("a", 5000)
            return workout { name = "Pattern", work(1), work(5),
              on_segment_start = function(seg) if seg.index == 2 then s:find(".-.-.-.-b") end end }
            """.write(to: url, atomically: false, encoding: .utf8)
        var started = Date()
        let hook = try workout(["run", url.path, "--json", "--max-hook-seconds", "0.5"],
                               environment: ["XDG_DATA_HOME": data.path])
        XCTAssertEqual(hook.status, 1)
        XCTAssertEqual(hook.stderr, "workout: \(url.lastPathComponent): on_segment_start ran 1.5 s past its time limit of 0.5 s "
                       + stopping)
        XCTAssertEqual(hook.lines.last?.contains(#""event":"segment_start","t":1"#), true, "the hook never returned: \(hook.stdout)")
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        let history = try String(contentsOf: data.appendingPathComponent("workout/history.jsonl"), encoding: .utf8)
        let lines = history.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, history)
        let entry = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        XCTAssertEqual(entry["program"] as? String, "Pattern")
        XCTAssertEqual(entry["completed"] as? Bool, false)
        XCTAssertEqual(entry["segments_done"] as? Int, 1)
        // While loading: limit 1 s, watchdog at 3 s.
        try """
            local s = string.rep("a", 5000)
            s:find(".-.-.-.-b")
            """.write(to: url, atomically: false, encoding: .utf8)
        started = Date()
        let load = try workout(["check", url.path, "--max-load-seconds", "1"])
        XCTAssertEqual(load.status, 1)
        XCTAssertEqual(load.stderr, "workout: \(url.lastPathComponent): loading ran 2 s past its time limit of 1 s " + stopping)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 2.9)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }
}
