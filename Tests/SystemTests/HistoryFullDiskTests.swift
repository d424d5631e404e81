import Foundation
import PastSessions
import XCTest
@testable import History
@testable import IntervalEngine

/// A full disk loses nothing already safe: an append cut short is cut back off, and the
/// next session's line starts on a line of its own.
final class HistoryFullDiskTests: XCTestCase {
    private func entry(_ program: String) -> HistoryEntry {
        HistoryEntry(program: program, file: "/r/x.lua", sha256: String(repeating: "0", count: 64),
                     started: Timestamp.date(from: "2026-11-20T07:30:00+01:00")!,
                     ended: Timestamp.date(from: "2026-11-20T07:46:00+01:00")!, completed: true,
                     elapsed: 960, segmentsDone: 49, segments: 49, workSeconds: 160)
    }

    func testAnAppendCutShortByAFullDiskIsCutBack() throws {
        let disk = try SmallDisk(bytes: 16 * 1024)
        let file = HistoryFile(path: disk.directory.appendingPathComponent("workout/history.jsonl").path)
        // A first line that leaves 100 bytes of its page free: the next line gets that far.
        let empty = entry("").json.text.utf8.count + 1
        let first = entry(String(repeating: "A", count: 4096 - 100 - empty))
        try file.append(first)
        let before = try Data(contentsOf: URL(fileURLWithPath: file.path))
        XCTAssertEqual(before.count, 4096 - 100)
        let filler = disk.fill()

        let second = entry(String(repeating: "B", count: 300))
        XCTAssertThrowsError(try file.append(second)) { error in
            XCTAssertEqual("\(error)", "cannot write \(file.path): only 100 of \(second.json.text.utf8.count + 1) bytes written")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file.path)), before, "the fragment is gone")

        try FileManager.default.removeItem(at: filler)
        let third = entry("C")
        try file.append(third)
        let read = try file.read()
        XCTAssertEqual(read.entries, [first, third])
        XCTAssertEqual(read.damaged, [])
    }

    /// Nothing written at all (not even a byte fits) leaves the file as it was too.
    func testAnAppendToAFullDiskChangesNothing() throws {
        let disk = try SmallDisk(bytes: 16 * 1024)
        let file = HistoryFile(path: disk.directory.appendingPathComponent("workout/history.jsonl").path)
        let first = entry(String(repeating: "A", count: 4096 - entry("").json.text.utf8.count - 1))
        try file.append(first)
        disk.fill()
        XCTAssertThrowsError(try file.append(entry("B"))) { error in
            XCTAssertEqual("\(error)", "cannot write \(file.path): No space left on device")
        }
        XCTAssertEqual(try file.read().entries, [first])
    }

    /// The built binary on a full disk: the session is reported unrecorded, the file is as
    /// it was, and the next session (with room again) is recorded whole.
    func testARunOnAFullDiskSaysSoAndSpoilsNothing() throws {
        let disk = try SmallDisk(bytes: 16 * 1024)
        let history = disk.directory.appendingPathComponent("workout/history.jsonl")
        let file = HistoryFile(path: history.path)
        try file.append(entry(String(repeating: "A", count: 4096 - 60 - entry("").json.text.utf8.count - 1)))
        let before = try Data(contentsOf: history)
        let filler = disk.fill()
        let routine = fixtures.appendingPathComponent("e2e.lua").path
        let environment = ["XDG_DATA_HOME": disk.directory.path]
        let full = try WorkoutBinary.run(["run", routine, "--speed", "1000", "--json"], environment: environment)
        XCTAssertEqual(full.status, 0, full.stderr)
        XCTAssertTrue(full.stderr.hasPrefix("workout: the session was not recorded in the history: cannot write \(history.path): only 60 of "),
                      full.stderr)
        XCTAssertEqual(try Data(contentsOf: history), before)
        try FileManager.default.removeItem(at: filler)
        XCTAssertEqual(try WorkoutBinary.run(["run", routine, "--speed", "1000"], environment: environment).status, 0)
        let read = try file.read()
        XCTAssertEqual(read.entries.map(\.program).last, "E2E")
        XCTAssertEqual(read.entries.count, 2)
        XCTAssertEqual(read.damaged, [])
    }
}
