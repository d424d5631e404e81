import Foundation
import XCTest

/// The limit options as a user gives them to the built binary.
extension EndToEndTests {
    private func routineFile(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("workout-limits-\(UUID().uuidString).lua")
        try text.write(to: url, atomically: true, encoding: .utf8)
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
/// the process with a clear message instead of leaving it busy forever.
extension EndToEndTests {
    func testACostlyPatternIsStoppedByTheWatchdog() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("workout-pattern-\(UUID().uuidString).lua")
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        let message = "workout: \(url.lastPathComponent): a library call ran far past its time limit and cannot be "
            + "interrupted (a string pattern too costly for its text?); stopping\n"
        // In a hook: limit 0.5 s, watchdog at 0.5 + 0.5 + 1 = 2 s.
        try """
            local s = string.rep("a", 5000)
            return workout { name = "Pattern", work(1), on_start = function() s:find(".-.-.-.-b") end }
            """.write(to: url, atomically: true, encoding: .utf8)
        var started = Date()
        let hook = try workout(["run", url.path, "--json", "--max-hook-seconds", "0.5"])
        XCTAssertEqual(hook.status, 1)
        XCTAssertEqual(hook.stderr, message)
        XCTAssertEqual(hook.lines.count, 1, "workout_start, then nothing: the hook never returned")
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        // While loading: limit 1 s, watchdog at 3 s.
        try """
            local s = string.rep("a", 5000)
            s:find(".-.-.-.-b")
            """.write(to: url, atomically: true, encoding: .utf8)
        started = Date()
        let load = try workout(["check", url.path, "--max-load-seconds", "1"])
        XCTAssertEqual(load.status, 1)
        XCTAssertEqual(load.stderr, message)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 2.9)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }
}
