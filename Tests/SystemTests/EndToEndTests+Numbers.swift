import Foundation
import XCTest

/// Numbers from the command line and from the history file, as the built binary meets
/// them: a usage error or a damaged line, never a trap.
extension EndToEndTests {
    func testASpeedOutsideItsRangeIsAUsageError() throws {
        for speed in ["0.001", "0", "10001"] {
            let result = try workout(["run", "demo", "--speed=\(speed)", "--json"])
            XCTAssertEqual(result.status, 64, speed)
            XCTAssertTrue(result.stderr.contains("--speed must be a number from 0.01 to 10000, got "), result.stderr)
            XCTAssertEqual(result.stdout, "", speed)
        }
        // Not a plain decimal (`PlainNumber`): not a number at all, whatever its value.
        for speed in ["1e-10", "-1", "nan", "inf", "1e300", "0x10", "+2"] {
            let result = try workout(["run", "demo", "--speed=\(speed)", "--json"])
            XCTAssertEqual(result.status, 64, speed)
            XCTAssertTrue(result.stderr.contains("The value '\(speed)' is invalid for '--speed <speed>'"), result.stderr)
            XCTAssertEqual(result.stdout, "", speed)
        }
        let slowest = try workout(["run", "demo", "--speed", "0.01", "--json", "--no-history"]) { process, output in
            let first = output.availableData
            process.terminate()
            return first
        }
        XCTAssertEqual(slowest.status, 143, slowest.stderr)
        XCTAssertTrue(slowest.stdout.contains(#""speed":0.01"#), slowest.stdout)
    }

    func testAHistoryLineWithAnAbsurdNumberIsSkippedNotFatal() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("workout-numbers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data.appendingPathComponent("workout"), withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: data) }
        let head = #"{"program":"P","file":"/p.lua","sha256":"","started":"2026-11-20T10:00:00Z","ended":"2026-11-20T10:00:00Z","completed":true,"#
        try [head + #""elapsed":60,"segments_done":1,"segments":1,"work_seconds":30}"#,
             head + #""elapsed":1e19,"segments_done":1,"segments":1,"work_seconds":30}"#,
             head + #""elapsed":60,"segments_done":1,"segments":1,"work_seconds":1e308}"#,
             head + #""elapsed":60,"segments_done":-3,"segments":1,"work_seconds":30}"#]
            .joined(separator: "\n").write(to: data.appendingPathComponent("workout/history.jsonl"), atomically: false, encoding: .utf8)
        let environment = ["XDG_DATA_HOME": data.path, "TZ": "UTC"]
        let text = try workout(["history"], environment: environment)
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertEqual(text.stderr, (2...4).map { "workout: history.jsonl:\($0): skipped a damaged line\n" }.joined())
        XCTAssertEqual(text.lines.filter { $0.contains("P  ") }.count, 1, text.stdout)
        let json = try workout(["history", "--json"], environment: environment)
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertFalse(json.stdout.contains("inf") || json.stdout.contains("nan"), json.stdout)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((report["sessions"] as? [Any])?.count, 1)
    }
}
