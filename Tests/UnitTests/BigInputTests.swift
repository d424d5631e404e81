import Foundation
import PastSessions
import TestSupport
import XCTest
@testable import History
@testable import IntervalEngine
@testable import LuaBridge

/// Big inputs stay small: a routine file is refused early above its documented size,
/// a FIFO never blocks a load, and the history is read as a stream.
final class BigInputTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("workout-big-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func loadError(path: String) -> String? {
        do {
            _ = try RoutineLoader.load(path: path)
            return nil
        } catch {
            return error.message
        }
    }

    func testARoutineFileAboveTheLimitIsRefusedBeforeItIsRead() throws {
        let path = directory.appendingPathComponent("huge.lua").path
        // 100 MB, sparse: refused on its size, never read.
        let descriptor = open(path, O_WRONLY | O_CREAT, 0o644)
        XCTAssertEqual(ftruncate(descriptor, 100 * 1_000_000), 0)
        close(descriptor)
        XCTAssertEqual(loadError(path: path), "\(path): the file is 95.4 MiB; a routine file may be at most 4 MiB")
        // At the limit it loads (a comment, then the routine).
        let fits = directory.appendingPathComponent("fits.lua")
        let routine = "\nreturn workout { name = 'Fits', work(1) }\n"
        try ("--" + String(repeating: "x", count: RoutineFile.maximumSize - routine.utf8.count - 2) + routine)
            .write(to: fits, atomically: false, encoding: .utf8)
        XCTAssertNil(loadError(path: fits.path))
    }

    func testAFifoOrADeviceIsNotARoutine() throws {
        let fifo = directory.appendingPathComponent("fifo.lua").path
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        XCTAssertEqual(loadError(path: fifo), "\(fifo): not a regular file (a routine is a .lua file)")
        XCTAssertEqual(loadError(path: "/dev/zero"), "/dev/zero: not a regular file (a routine is a .lua file)")
        XCTAssertEqual(loadError(path: directory.path), "\(directory.path): cannot read the routine (it is a directory)")
        XCTAssertEqual(loadError(path: directory.appendingPathComponent("none.lua").path),
                       "\(directory.appendingPathComponent("none.lua").path): no such routine file")
    }

    /// The streamed report equals the one made from every entry at once, over a history
    /// with damaged, blank, overlong and unterminated lines.
    func testTheHistoryStreamsToTheSameReport() throws {
        let file = HistoryFile(path: directory.appendingPathComponent("history.jsonl").path)
        var entries: [HistoryEntry] = []
        for index in 0..<300 {
            let day = 1 + index % 28
            let started = try XCTUnwrap(Timestamp.date(from: "2026-11-\(day < 10 ? "0" : "")\(day)T07:30:00Z"))
            let entry = HistoryEntry(program: "P\(index)", file: "/p.lua", sha256: "", started: started, ended: started,
                                     completed: index % 3 != 0, elapsed: 100, segmentsDone: 2, segments: 3,
                                     workSeconds: index % 3 == 0 ? 0 : 50)
            entries.append(entry)
            try file.append(entry)
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file.path))
        handle.seekToEndOfFile()
        handle.write(Data("\n   \n{\"program\": \"torn\n".utf8))
        handle.write(Data(("{\"program\":\"" + String(repeating: "x", count: HistoryLines.longest * 3) + "\"}\n").utf8))
        handle.write(Data(entries[0].json.text.utf8))
        handle.closeFile()
        entries.append(entries[0])

        var streamed: [HistoryEntry] = []
        var lines: [Int] = []
        var damaged: [Int] = []
        let now = try XCTUnwrap(Timestamp.date(from: "2026-11-29T12:00:00Z"))
        var tally = HistoryReport.Tally(limit: 7, now: now)
        try file.forEachEntry { entry, line in
            streamed.append(entry)
            lines.append(line)
            tally.add(entry)
        } damaged: { damaged.append($0) }
        XCTAssertEqual(streamed, entries)
        XCTAssertEqual(lines.last, 305)
        XCTAssertEqual(damaged, [303, 304])
        let read = try file.read()
        XCTAssertEqual(read.entries, entries)
        XCTAssertEqual(read.damaged, damaged)
        XCTAssertEqual(read.lines, lines)
        XCTAssertEqual(HistoryFile.contents(of: try Data(contentsOf: URL(fileURLWithPath: file.path))).lines, lines)
        let report = tally.report
        XCTAssertEqual(report.recent.count, 7)
        XCTAssertEqual(report.recent.first, entries.last, "newest first")
        XCTAssertEqual(report.recent.last, entries[entries.count - 7])
        let whole = HistoryReport(entries: entries, limit: 7, now: now)
        XCTAssertEqual(report.json, whole.json)
    }
}
