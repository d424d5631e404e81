import Foundation
import XCTest
@testable import History
@testable import IntervalEngine

/// The history as the built binary writes it: one line per real session, however it
/// ended; none for dry runs or `--no-history`; never a lost or torn line.
extension EndToEndTests {
    func dataHome() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("workout-data-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    func historyLines(_ data: URL) -> [String] {
        let path = data.appendingPathComponent("workout/history.jsonl").path
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    func object(_ line: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], line)
    }

    func testAFinishedRunIsRecordedOnceWithItsFileAndDigest() throws {
        let data = try dataHome()
        let routine = fixtures.appendingPathComponent("e2e.lua")
        let result = try workout(["run", routine.path, "--speed", "1000", "--json"],
                                 environment: ["XDG_DATA_HOME": data.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = historyLines(data)
        XCTAssertEqual(lines.count, 1)
        let entry = try object(lines[0])
        XCTAssertEqual(entry["program"] as? String, "E2E")
        XCTAssertEqual(entry["file"] as? String, routine.standardizedFileURL.path)
        XCTAssertEqual(entry["sha256"] as? String, SHA256.hex(try Data(contentsOf: routine)))
        XCTAssertEqual(entry["completed"] as? Bool, true)
        XCTAssertEqual(entry["elapsed"] as? Double, 19)
        XCTAssertEqual(entry["segments_done"] as? Int, 5)
        XCTAssertEqual(entry["segments"] as? Int, 5)
        XCTAssertEqual(entry["work_seconds"] as? Double, 10)
        let started = try XCTUnwrap(Timestamp.date(from: try XCTUnwrap(entry["started"] as? String)))
        let ended = try XCTUnwrap(Timestamp.date(from: try XCTUnwrap(entry["ended"] as? String)))
        XCTAssertLessThanOrEqual(started, ended)
        XCTAssertLessThan(Date().timeIntervalSince(started), 60)
        // The keys in the spec's order.
        XCTAssertTrue(lines[0].hasPrefix(#"{"program":"E2E","file":"#), lines[0])
        XCTAssertTrue(lines[0].contains(#""completed":true,"elapsed":19,"segments_done":5,"segments":5,"work_seconds":10,"speed":1000,"scores":{},"active":19,"#), lines[0])
    }

    func testDryRunsAndNoHistoryWriteNothing() throws {
        let data = try dataHome()
        let routine = fixtures.appendingPathComponent("e2e.lua").path
        XCTAssertEqual(try workout(["run", routine, "--dry-run"], environment: ["XDG_DATA_HOME": data.path]).status, 0)
        XCTAssertEqual(try workout(["run", routine, "--speed", "1000", "--no-history"],
                                   environment: ["XDG_DATA_HOME": data.path]).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: data.appendingPathComponent("workout").path))
    }

    func testAnInterruptedRunIsRecordedAsNotCompleted() throws {
        for (number, status) in [(SIGTERM, Int32(143)), (SIGINT, Int32(130))] {
            let data = try dataHome()
            let result = try workout(["run", fixtures.appendingPathComponent("e2e.lua").path, "--json"],
                                     environment: ["XDG_DATA_HOME": data.path]) {
                self.signal(number, $0, afterFirstLineOf: $1)
            }
            XCTAssertEqual(result.status, status, result.stderr)
            let lines = historyLines(data)
            XCTAssertEqual(lines.count, 1)
            let entry = try object(lines[0])
            XCTAssertEqual(entry["completed"] as? Bool, false)
            XCTAssertEqual(entry["segments"] as? Int, 5)
            XCTAssertLessThan(try XCTUnwrap(entry["elapsed"] as? Double), 19)
        }
    }

    func testWithoutXDGDataHomeTheHistoryIsUnderHome() throws {
        let home = try dataHome()
        let result = try workout(["run", fixtures.appendingPathComponent("e2e.lua").path, "--speed", "1000"],
                                 environment: ["XDG_DATA_HOME": "", "HOME": home.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let path = home.appendingPathComponent(".local/share/workout/history.jsonl").path
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count, 1)
    }

    func testAnUnwritableDataDirectoryCostsOneWarningAndNothingElse() throws {
        let data = try dataHome()
        let blocker = data.appendingPathComponent("blocker")
        try Data().write(to: blocker)
        let result = try workout(["run", fixtures.appendingPathComponent("e2e.lua").path, "--speed", "1000", "--json"],
                                 environment: ["XDG_DATA_HOME": blocker.path])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.lines.last?.contains(#""event":"workout_end""#) == true, result.stdout)
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("history") }
        XCTAssertEqual(warnings, ["workout: the session was not recorded in the history: cannot create \(blocker.path)/workout: Not a directory"])
    }

    func testTwoConcurrentRunsNeverTearOrLoseALine() throws {
        let data = try dataHome()
        // Lines longer than a pipe buffer (4 KiB), so a writer that split them would show.
        for letter in ["A", "B"] {
            try """
                return workout { name = string.rep("\(letter)", 6000), countdown = 0, work(0.5), rest(0.5) }
                """.write(to: data.appendingPathComponent("\(letter).lua"), atomically: false, encoding: .utf8)
        }
        let runs = 15
        var processes: [Process] = []
        for letter in ["A", "B"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "for i in $(seq \(runs)); do \"$0\" run \"$1\" --speed 1000 --json > /dev/null || exit 1; done",
                                 WorkoutBinary.binary, data.appendingPathComponent("\(letter).lua").path]
            var env = ProcessInfo.processInfo.environment
            env["XDG_DATA_HOME"] = data.path
            env["DBUS_SESSION_BUS_ADDRESS"] = nil
            process.environment = env
            try process.run()
            processes.append(process)
        }
        for process in processes {
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0)
        }
        let lines = historyLines(data)
        XCTAssertEqual(lines.count, 2 * runs)
        var counts: [String: Int] = [:]
        for line in lines {
            let program = try XCTUnwrap(try object(line)["program"] as? String)
            XCTAssertTrue(program == String(repeating: "A", count: 6000) || program == String(repeating: "B", count: 6000))
            counts[String(program.prefix(1)), default: 0] += 1
        }
        XCTAssertEqual(counts, ["A": runs, "B": runs])
    }

    func testHistoryShowsSessionsAndSkipsADamagedLine() throws {
        let data = try dataHome()
        let routine = fixtures.appendingPathComponent("e2e.lua").path
        XCTAssertEqual(try workout(["run", routine, "--speed", "1000"], environment: ["XDG_DATA_HOME": data.path]).status, 0)
        let path = data.appendingPathComponent("workout/history.jsonl")
        let handle = try FileHandle(forWritingTo: path)
        handle.seekToEndOfFile()
        handle.write(Data("{\"program\": \"torn\n".utf8))
        handle.closeFile()
        XCTAssertEqual(try workout(["run", routine, "--speed", "1000"], environment: ["XDG_DATA_HOME": data.path]).status, 0)

        // Both ran at 1000x: listed, but counted only with --all.
        let text = try workout(["history", "--all"], environment: ["XDG_DATA_HOME": data.path, "TZ": "UTC"])
        XCTAssertEqual(text.status, 0)
        XCTAssertEqual(text.stderr, "workout: history.jsonl:2: skipped a damaged line\n")
        XCTAssertEqual(text.lines.first, "Recent sessions")
        XCTAssertEqual(text.lines.filter { $0.contains("E2E") && $0.contains("finished  5/5 segments  0:10 work") }.count, 2,
                       text.stdout)
        XCTAssertTrue(text.lines.contains { $0.hasPrefix("  week of ") && $0.contains("2 sessions") && $0.hasSuffix("0:20 work") },
                      text.stdout)
        XCTAssertEqual(text.lines.last, "Streak: 1 day")

        let json = try workout(["history", "--json", "--limit", "1", "--all"], environment: ["XDG_DATA_HOME": data.path])
        let report = try object(json.stdout)
        XCTAssertEqual((report["sessions"] as? [Any])?.count, 1)
        XCTAssertEqual((report["weeks"] as? [[String: Any]])?.first?["sessions"] as? Int, 2)
        XCTAssertEqual(report["streak_days"] as? Int, 1)
        let counted = try object(try workout(["history", "--json"], environment: ["XDG_DATA_HOME": data.path]).stdout)
        XCTAssertEqual((counted["weeks"] as? [[String: Any]])?.first?["sessions"] as? Int, 0)
        XCTAssertEqual((counted["sessions"] as? [Any])?.count, 2)
    }

    func testAnEmptyHistorySaysSo() throws {
        let data = try dataHome()
        let result = try workout(["history"], environment: ["XDG_DATA_HOME": data.path])
        XCTAssertEqual(result.stdout, "No sessions yet (\(data.path)/workout/history.jsonl).\n")
    }
}
