import Activity
import FIT
import Foundation
import History
import PastSessions
import WorkoutValues
import XCTest

/// The athlete's rating of a session (RPE 1–10, feel 1–5): in the history's line, amended
/// in place after the line was written, and in the FIT session's `workout_rpe` and
/// `workout_feel`.
final class SessionRatingTests: XCTestCase {
    func line(_ entry: HistoryEntry) -> HistoryEntry? {
        var text = entry.json.text
        return text.withUTF8 { HistoryEntry(line: $0) }
    }

    func testTheRatingIsInTheLineAndReadBack() throws {
        var entry = historyEntry("Sweet spot", started: "2026-11-28T07:00:00Z")
        XCTAssertFalse(entry.json.text.contains("rpe"), "no rating, no field")
        entry.rpe = 8
        entry.feel = 4
        XCTAssertTrue(entry.json.text.hasSuffix(#""rpe":8,"feel":4}"#), entry.json.text)
        XCTAssertEqual(line(entry), entry)
        XCTAssertEqual(line(entry)?.rpe, 8)
    }

    func testARatingOutOfItsScaleIsADamagedLine() {
        for (field, value) in [("rpe", "0"), ("rpe", "11"), ("rpe", "7.5"), ("feel", "6"), ("feel", "\"good\"")] {
            var text = historyEntry("A", started: "2026-11-28T07:00:00Z").json.text
            text.removeLast()
            text += ",\"\(field)\":\(value)}"
            XCTAssertNil(text.withUTF8 { HistoryEntry(line: $0) }, "\(field) = \(value)")
        }
    }

    func testAmendReplacesTheSessionsLineAndKeepsEveryOther() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rating-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = HistoryFile(path: directory.appendingPathComponent("history.jsonl").path)
        let first = historyEntry("A", started: "2026-11-27T07:00:00Z")
        let second = historyEntry("B", started: "2026-11-28T07:00:00Z")
        try file.append(first)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file.path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("not a session\n".utf8))
        try handle.close()
        try file.append(second)
        var rated = second
        rated.rpe = 6
        XCTAssertTrue(try file.amend(second, to: rated))
        let text = try String(contentsOfFile: file.path, encoding: .utf8)
        XCTAssertEqual(text, first.json.text + "\nnot a session\n" + rated.json.text + "\n")
        XCTAssertFalse(try file.amend(second, to: rated), "the old line is gone: nothing to amend")
    }

    func testTheFITSessionHoldsTheRatingOnGarminsScales() throws {
        var entry = historyEntry("A", started: "2026-11-28T07:00:00Z")
        let creator = FITActivity.Creator(name: "workout", version: "1.0")
        let plain = try FITDecoder.messages(FITActivity.encode(Activity(entry: entry), creator: creator))
        XCTAssertNil(try XCTUnwrap(plain.first { $0.global == 18 }).numbers[193])
        for (rpe, feel, fitRPE, fitFeel) in [(1, 1, 10, 100), (7, 3, 70, 50), (10, 5, 100, 0)] {
            entry.rpe = rpe
            entry.feel = feel
            let messages = try FITDecoder.messages(FITActivity.encode(Activity(entry: entry), creator: creator))
            let session = try XCTUnwrap(messages.first { $0.global == 18 })
            XCTAssertEqual(session.numbers[193], UInt64(fitRPE), "workout_rpe for RPE \(rpe)")
            XCTAssertEqual(session.numbers[192], UInt64(fitFeel), "workout_feel for feel \(feel)")
        }
    }
}
