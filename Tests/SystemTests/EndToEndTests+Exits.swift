import Foundation
import XCTest

/// Every way out is a clean way out: the terminal closing (SIGHUP), Ctrl-\ (SIGQUIT), a
/// reader that goes away (EPIPE), Ctrl-C while a hook spins; and a reader that stalls
/// holds up neither the timers nor the hooks.
extension EndToEndTests {
    private func freshData() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("workout-exits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    private func history(_ data: URL) throws -> [[String: Any]] {
        let text = (try? String(contentsOf: data.appendingPathComponent("workout/history.jsonl"), encoding: .utf8)) ?? ""
        return try text.split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    private func routine(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("workout-exits-\(UUID().uuidString).lua")
        try text.write(to: url, atomically: false, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    func testHangupAndQuitEndTheRunCleanlyAndRecordIt() throws {
        for (number, status) in [(SIGHUP, Int32(129)), (SIGQUIT, Int32(131))] {
            let data = try freshData()
            let result = try workout(["run", fixtures.appendingPathComponent("e2e.lua").path, "--json"],
                                     environment: ["XDG_DATA_HOME": data.path]) {
                self.signal(number, $0, afterFirstLineOf: $1)
            }
            XCTAssertEqual(result.status, status, result.stderr)
            XCTAssertEqual(result.stderr, "", "no backtrace, no message")
            XCTAssertTrue(result.lines.last?.contains(#""event":"workout_end","#) == true, result.stdout)
            let entries = try history(data)
            XCTAssertEqual(entries.count, 1)
            XCTAssertEqual(entries.first?["completed"] as? Bool, false)
        }
    }

    /// `workout run … --json | head -1`: the reader leaves after one line; the run ends at
    /// its next event, recorded, with the status a shell expects of such a writer.
    func testAReaderThatGoesAwayEndsTheRunRecorded() throws {
        let data = try freshData()
        let script = #""$0" run "$1" --json --speed 10 --no-sound | head -1; exit ${PIPESTATUS[0]}"#
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script, WorkoutBinary.binary, fixtures.appendingPathComponent("e2e.lua").path]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = data.path
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complaints = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 141)
        XCTAssertEqual(complaints, "")
        XCTAssertTrue(printed.hasPrefix(#"{"event":"workout_start""#), printed)
        let entries = try history(data)
        XCTAssertEqual(entries.count, 1)
        XCTAssertEqual(entries.first?["completed"] as? Bool, false)
        XCTAssertLessThan(try XCTUnwrap(entries.first?["elapsed"] as? Double), 19)
    }

    func testOutputThatCannotBeWrittenIsAnError() throws {
        let routine = fixtures.appendingPathComponent("e2e.lua").path
        for arguments in [["plan", "demo", "--json"], ["plan", "demo"], ["history"], ["list"], ["check", "demo"],
                          ["run", routine, "--json", "--no-history", "--no-sound"], ["run", routine, "--dry-run", "--json"]] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: WorkoutBinary.binary)
            process.arguments = arguments
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 1, "\(arguments)")
            XCTAssertEqual(complaint, "workout: cannot write to standard output: No space left on device\n", "\(arguments)")
        }
    }

    /// Ctrl-C reaches Lua at once through the count hook, even with no time limit and a
    /// budget that would last hours: the hook stops, `on_finish` still runs, the session is
    /// recorded and the status is 130.
    func testInterruptStopsASpinningHookAtOnce() throws {
        let data = try freshData()
        let spin = try routine("""
            return workout { name = "Spin", work(5), rest(5),
              on_start = function() local n = 0 while true do n = n + 1 end end,
              on_finish = function(summary) print("finish ran, completed " .. tostring(summary.completed)) end }
            """)
        let result = try workout(["run", spin, "--json", "--max-hook-instructions", "1000000000000", "--max-hook-seconds", "0"],
                                 environment: ["XDG_DATA_HOME": data.path]) {
            self.signal(SIGINT, $0, afterFirstLineOf: $1)
        }
        XCTAssertEqual(result.status, 130, result.stderr)
        XCTAssertFalse(result.stdout.contains(#""event":"error""#), "an interruption is not the hook's error: \(result.stdout)")
        XCTAssertTrue(result.stdout.contains(#""text":"finish ran, completed false""#), result.stdout)
        XCTAssertTrue(result.lines.last?.contains(#""event":"workout_end""#) == true, result.stdout)
        XCTAssertEqual(try history(data).count, 1)
    }

    /// A reader that reads nothing for longer than the watchdog's time: the workout still
    /// ends on time (its history line is written before anything is read), and every
    /// event is there once the reader reads.
    func testAStalledReaderHoldsUpNoTimerAndNoHook() throws {
        let data = try freshData()
        // Each segment's hook prints 100 KiB, more than a pipe holds.
        let chatty = try routine("""
            return workout { name = "Chatty", countdown = 0, rounds(3, { work(0.5) }),
              on_segment_start = function(seg) for i = 1, 500 do print(string.rep("x", 200)) end end }
            """)
        let historyFile = data.appendingPathComponent("workout/history.jsonl").path
        var wroteHistoryBeforeReading = false
        let result = try workout(["run", chatty, "--json", "--no-bell", "--max-hook-seconds", "0.5"],
                                 environment: ["XDG_DATA_HOME": data.path]) { _, _ in
            // The watchdog would fire 2 s into a hook blocked on its output.
            wroteHistoryBeforeReading = eventually(timeout: 30, every: 0.1) {
                FileManager.default.fileExists(atPath: historyFile)
            }
            // The stall itself, past the watchdog's 2 s: what the test is about.
            Thread.sleep(forTimeInterval: 2.5)
            return Data()
        }
        XCTAssertTrue(wroteHistoryBeforeReading, "the workout ended while its reader read nothing")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.lines.filter { $0.contains(#""event":"log""#) }.count, 1500)
        XCTAssertTrue(result.lines.last?.contains(#""event":"workout_end","#) == true)
        XCTAssertEqual(try history(data).first?["completed"] as? Bool, true)
    }

    /// A dry run has no timers, but its hooks have time limits: its output is written as
    /// it goes, and a reader's stall is not charged to the hook that printed.
    func testAStalledReaderDoesNotTripADryRunsWatchdog() throws {
        let chatty = try routine("""
            return workout { name = "Chatty", countdown = 0, rounds(3, { work(1) }),
              on_segment_start = function(seg) for i = 1, 1000 do print(string.rep("x", 200)) end end }
            """)
        let result = try workout(["run", chatty, "--dry-run", "--json", "--max-hook-seconds", "0.5"]) { _, _ in
            Thread.sleep(forTimeInterval: 3)
            return Data()
        }
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.lines.filter { $0.contains(#""event":"log""#) }.count, 3000)
    }

    /// Beyond what waits in memory for a stalled reader, lines are dropped, counted and
    /// said, never piled up without bound.
    func testAReaderTooFarBehindLosesLinesAndIsTold() throws {
        let flood = try routine("""
            return workout { name = "Flood", work(1),
              on_start = function() for i = 1, 30000 do print(string.rep("y", 200)) end end }
            """)
        let result = try workout(["run", flood, "--json", "--no-bell", "--no-history", "--max-hook-seconds", "60"]) { _, _ in
            Thread.sleep(forTimeInterval: 4)
            return Data()
        }
        XCTAssertEqual(result.status, 0, result.stderr)
        let logs = result.lines.filter { $0.contains(#""event":"log""#) }.count
        XCTAssertLessThan(logs, 30000)
        XCTAssertGreaterThan(logs, 10000)
        // workout_start, 30,000 logs, segment_start, segment_end, workout_end: each written or counted.
        XCTAssertEqual(result.stderr,
                       "workout: the reader of standard output fell behind; \(30004 - result.lines.count) event lines were not written\n")
    }
}
