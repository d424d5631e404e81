import Foundation
import XCTest

/// Bluetooth devices that misbehave, against the fake BlueZ (Fixtures/bluez_server.py):
/// a strap that notifies 10,000 times a second, payloads cut short or whose flags promise
/// fields that are not there, and a trainer removed in the middle of a control point
/// write. Each gives at most one warning and no flood of lines, and the timers keep
/// their time.
final class SensorMisbehaviourTests: XCTestCase {
    let routine = fixtures.appendingPathComponent("sensors.lua").path
    let quiet = "--no-sound --no-notify --allow-sleep --no-history"
    /// A strap that notifies only when told.
    let toldStrap = FakeBlueZ.strap.replacingOccurrences(of: "\"every\": 0.25", with: "\"every\": 1000")

    func events(_ directory: String) -> [[String: Any]] {
        text(directory, "out").split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    func text(_ directory: String, _ name: String) -> String {
        (try? String(contentsOfFile: "\(directory)/\(name)", encoding: .utf8)) ?? ""
    }

    /// The boundaries at 3 s and 6 s as planned, `late_ms` p99 under 20 ms, and at most
    /// one sample a second.
    func assertOnTime(_ all: [[String: Any]], file: StaticString = #filePath, line: UInt = #line) {
        let ends = all.filter { $0["event"] as? String == "segment_end" }.compactMap { $0["at"] as? Double }
        XCTAssertEqual(ends, [3, 6], file: file, line: line)
        let late = all.compactMap { $0["late_ms"] as? Double }.sorted()
        XCTAssertFalse(late.isEmpty, file: file, line: line)
        let p99 = late[min(late.count - 1, Int((Double(late.count) * 0.99).rounded(.up)) - 1)]
        XCTAssertLessThan(p99, 20, "\(late)", file: file, line: line)
        let samples = all.filter { $0["event"] as? String == "sample" }
        XCTAssertLessThanOrEqual(samples.count, 8, "at most one a second in a 6 s workout", file: file, line: line)
    }

    /// 10,000 notifications a second for four seconds (a hundred every 10 ms): the timers
    /// keep their time, the output its one sample a second, and nothing is said.
    func testTenThousandNotificationsASecond() throws {
        _ = try FakeBlueZ.run(devices: [toldStrap], """
            "$WORKOUT" run '\(routine)' --json \(quiet) --sensor C0:FF:EE:00:00:01 > "$DIR/out" 2> "$DIR/err" & workout=$!
            waitfor notify-on
            send stream C0:FF:EE:00:00:01 2a37 16aa 10000 4
            wait $workout; echo "exit $?" >> "$DIR/report"
            waitfor streamed
            """) { outcome in
            XCTAssertEqual(outcome.report, ["exit 0"], text(outcome.directory, "err"))
            let streamed = outcome.log.first { $0.hasPrefix("streamed") } ?? ""
            XCTAssertGreaterThan(Int(streamed.split(separator: " ").last ?? "") ?? 0, 35_000, streamed)
            let all = events(outcome.directory)
            XCTAssertTrue(all.contains { $0["event"] as? String == "sample" && $0["hr"] as? Int == 170 }, "the values were read")
            assertOnTime(all)
            XCTAssertEqual(text(outcome.directory, "err"), "")
        }
    }

    /// Heart rates cut short, with flags that promise a 16-bit value, energy or RR
    /// intervals that are not there, and an empty one; then a real one (150 bpm). Only the real one
    /// is a sample, nothing is said, nothing moves.
    func testShortAndFlagLyingPayloadsAreNoValues() throws {
        let lies = ["", "00", "01", "0148", "19", "1948", "0948", "1148", "1f4800", "ff"]
        let sends = lies.map { "send notify C0:FF:EE:00:00:01 2a37 \($0.isEmpty ? "-" : $0)" }.joined(separator: "\n")
        _ = try FakeBlueZ.run(devices: [toldStrap], """
            "$WORKOUT" run '\(routine)' --json \(quiet) --sensor C0:FF:EE:00:00:01 > "$DIR/out" 2> "$DIR/err" & workout=$!
            waitfor notify-on
            for round in 1 2 3 4 5 6 7 8 9 10; do
            \(sends)
            done
            send notify C0:FF:EE:00:00:01 2a37 1696
            wait $workout; echo "exit $?" >> "$DIR/report"
            """) { outcome in
            XCTAssertEqual(outcome.report, ["exit 0"], text(outcome.directory, "err"))
            let all = events(outcome.directory)
            let samples = all.filter { $0["event"] as? String == "sample" }
            XCTAssertEqual(samples.compactMap { $0["hr"] as? Int }, [150], "only the real one: \(samples)")
            assertOnTime(all)
            XCTAssertEqual(text(outcome.directory, "err"), "")
        }
    }

    /// The trainer is removed while its power target is being written, the write's failure
    /// coming after the removal or before it: one warning (it dropped out), not a second
    /// one blaming the trainer for refusing, and the workout keeps its time.
    func testATrainerRemovedMidWriteGivesOneWarning() throws {
        for order in ["", "\"error_first\": true,"] {
            try removedMidWrite(order)
        }
    }

    private func removedMidWrite(_ order: String) throws {
        let trainer = FakeBlueZ.trainer.replacingOccurrences(of: "\"paired\": true,",
                                                             with: "\"paired\": true, \"vanish_on_write\": 5, \(order)")
        _ = try FakeBlueZ.run(devices: [trainer], """
            "$WORKOUT" run '\(routine)' --json \(quiet) --set ftp=200 --sensor C0:FF:EE:00:00:02 > "$DIR/out" 2> "$DIR/err"
            echo "exit $?" >> "$DIR/report"
            """) { outcome in
            XCTAssertEqual(outcome.report, ["exit 0"], text(outcome.directory, "err"))
            XCTAssertTrue(outcome.log.contains("removed C0:FF:EE:00:00:02"), "\(outcome.log)")
            XCTAssertEqual(text(outcome.directory, "err"), "workout: sensor Trainer (C0:FF:EE:00:00:02) dropped out; reconnecting\n")
            assertOnTime(events(outcome.directory))
        }
    }
}
