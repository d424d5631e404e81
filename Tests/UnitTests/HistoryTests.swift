import Foundation
import PastSessions
import WorkoutValues
import XCTest
@testable import History
@testable import IntervalEngine

/// The history file and what `workout history` computes from it.
final class HistoryTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("workout-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func entry(_ program: String, started: String, completed: Bool = true, work: Double = 60) -> HistoryEntry {
        historyEntry(program, started: started, completed: completed, work: work)
    }

    func testSHA256MatchesTheStandardVectors() {
        XCTAssertEqual(SHA256.hex(Array("".utf8)), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // Two blocks of padding: 56 to 63 bytes of message.
        XCTAssertEqual(SHA256.hex([UInt8](repeating: 0x61, count: 1_000)),
                       "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    func testTheDataDirectoryFollowsXDG() {
        XCTAssertEqual(HistoryFile(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"]).path,
                       "/data/workout/history.jsonl")
        XCTAssertEqual(HistoryFile(environment: ["HOME": "/home/u"]).path, "/home/u/.local/share/workout/history.jsonl")
        // Empty or relative values are ignored, as the XDG spec says.
        XCTAssertEqual(HistoryFile(environment: ["XDG_DATA_HOME": "", "HOME": "/home/u"]).path,
                       "/home/u/.local/share/workout/history.jsonl")
        XCTAssertEqual(HistoryFile(environment: ["XDG_DATA_HOME": "rel", "HOME": "/home/u"]).path,
                       "/home/u/.local/share/workout/history.jsonl")
    }

    func testEntriesGoInAsOneLineEachAndComeBackTheSame() throws {
        let file = HistoryFile(path: directory.appendingPathComponent("sub/dir/history.jsonl").path)
        let first = entry("Tabata", started: "2026-11-20T07:30:00+01:00")
        var second = entry("HIIT \"20\"\n", started: "2026-11-21T18:02:03Z", completed: false, work: 12.5)
        second.speed = 20
        second.scores = [Score(name: "rounds", value: 7), Score(name: "best, \"time\"", value: 95.5, lowerIsBetter: true)]
        try withTimeZone("Europe/Berlin") {
            try file.append(first)
            try file.append(second)
        }
        let text = try String(contentsOfFile: file.path, encoding: .utf8)
        XCTAssertEqual(text.filter { $0 == "\n" }.count, 2)
        XCTAssertTrue(text.hasPrefix(#"{"program":"Tabata","file":"/r/Tabata.lua","sha256":"000"#), text)
        XCTAssertTrue(text.contains(#""started":"2026-11-20T07:30:00+01:00","ended":"2026-11-20T07:30:00+01:00","completed":true,"elapsed":100,"segments_done":3,"segments":4,"work_seconds":60,"speed":1,"scores":{}}"#), text)
        // Written in the writer's local time; the direction of a score beside the scores.
        XCTAssertTrue(text.contains(#""started":"2026-11-21T19:02:03+01:00""#), text)
        XCTAssertTrue(text.contains(#""speed":20,"scores":{"rounds":7,"best, \"time\"":95.5},"lower_is_better":["best, \"time\""]}"#), text)
        let read = try file.read()
        XCTAssertEqual(read.entries, [first, second])
        XCTAssertEqual(read.lines, [1, 2])
        XCTAssertEqual(read.damaged, [])
    }

    func testDamagedLinesAreSkippedAndNumbered() throws {
        let file = HistoryFile(path: directory.appendingPathComponent("history.jsonl").path)
        try file.append(entry("A", started: "2026-11-20T07:30:00Z"))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file.path))
        handle.seekToEndOfFile()
        handle.write(Data("not json\n{\"program\":\"B\"}\n\n{\"program\":\"C\",\"file\":\"x\",\"sha256\":\"\",\"started\":\"yesterday\"}\n".utf8))
        handle.closeFile()
        try file.append(entry("D", started: "2026-11-21T07:30:00Z"))
        // A line cut short (a crash mid-write on another system) at the very end.
        let partial = try FileHandle(forWritingTo: URL(fileURLWithPath: file.path))
        partial.seekToEndOfFile()
        partial.write(Data("{\"program\":\"E\",\"fi".utf8))
        partial.closeFile()
        let read = try file.read()
        XCTAssertEqual(read.entries.map(\.program), ["A", "D"])
        XCTAssertEqual(read.lines, [1, 6])
        XCTAssertEqual(read.damaged, [2, 3, 5, 7])
    }

    func testAMissingFileIsAnEmptyHistory() throws {
        let read = try HistoryFile(path: directory.appendingPathComponent("none.jsonl").path).read()
        XCTAssertEqual(read.entries, [])
    }

    func testAnUnwritableDirectoryIsAnErrorNotACrash() throws {
        // A regular file where the directory should be: refused even for root.
        let blocker = directory.appendingPathComponent("blocker")
        try Data().write(to: blocker)
        let file = HistoryFile(path: blocker.appendingPathComponent("workout/history.jsonl").path)
        XCTAssertThrowsError(try file.append(entry("A", started: "2026-11-20T07:30:00Z"))) { error in
            XCTAssertEqual("\(error)", "cannot create \(blocker.path)/workout: Not a directory")
        }
    }

    func testWeeklyTotalsAndStreak() throws {
        try withTimeZone("UTC") { try weeklyTotalsAndStreak() }
    }

    private func weeklyTotalsAndStreak() throws {
        let now = Timestamp.date(from: "2026-11-21T20:00:00Z")!  // a Saturday
        let entries = [
            entry("Old", started: "2026-10-01T08:00:00Z", work: 600),
            entry("Mon last week", started: "2026-11-09T08:00:00Z", work: 100),
            entry("Sun last week", started: "2026-11-15T23:59:00Z", work: 50),
            entry("Thu", started: "2026-11-19T08:00:00Z", work: 30),
            entry("Fri quit early, no work", started: "2026-11-20T08:00:00Z", completed: false, work: 0),
            entry("Fri", started: "2026-11-20T18:00:00Z", work: 40),
            entry("Sat", started: "2026-11-21T07:00:00Z", work: 20),
        ]
        let report = HistoryReport(entries: entries, limit: 3, now: now)
        XCTAssertEqual(report.recent.map(\.program), ["Sat", "Fri", "Fri quit early, no work"])
        XCTAssertEqual(report.weeks.map(\.start), ["2026-11-16", "2026-11-09", "2026-11-02", "2026-10-26"])
        XCTAssertEqual(report.weeks.map(\.sessions), [4, 2, 0, 0])
        XCTAssertEqual(report.weeks.map(\.workSeconds), [90, 150, 0, 0])
        XCTAssertEqual(report.streakDays, 3, "Thursday, Friday, Saturday")
        // Tomorrow the streak still counts (today may yet come); the day after, it is gone.
        let tomorrow = Timestamp.date(from: "2026-11-22T12:00:00Z")!
        XCTAssertEqual(HistoryReport(entries: entries, limit: 0, now: tomorrow).streakDays, 3)
        let later = Timestamp.date(from: "2026-11-23T12:00:00Z")!
        XCTAssertEqual(HistoryReport(entries: entries, limit: 0, now: later).streakDays, 0)
    }

    func testTheReportAsJSON() throws {
        withTimeZone("UTC") {
            let report = HistoryReport(entries: [entry("A", started: "2026-11-21T07:00:00Z")], limit: 5, weeks: 1,
                                       now: Timestamp.date(from: "2026-11-21T20:00:00Z")!)
            XCTAssertEqual(report.json.text, """
                {"sessions":[{"program":"A","file":"/r/A.lua","sha256":"\(String(repeating: "0", count: 64))",\
                "started":"2026-11-21T07:00:00+00:00","ended":"2026-11-21T07:00:00+00:00","completed":true,"elapsed":100,\
                "segments_done":3,"segments":4,"work_seconds":60,"speed":1,"scores":{}}],\
                "weeks":[{"start":"2026-11-16","sessions":1,"work_seconds":60,"elapsed":100}],"streak_days":1}
                """)
        }
    }

    func testSpedUpSessionsAreListedButNotCounted() throws {
        withTimeZone("UTC") {
            var fast = entry("Test run", started: "2026-11-21T09:00:00Z", work: 900)
            fast.speed = 20
            let entries = [entry("A", started: "2026-11-20T07:00:00Z"), fast]
            let now = Timestamp.date(from: "2026-11-21T20:00:00Z")!
            let report = HistoryReport(entries: entries, limit: 5, weeks: 1, now: now)
            XCTAssertEqual(report.recent.map(\.program), ["Test run", "A"])
            XCTAssertEqual(report.weeks.map(\.sessions), [1])
            XCTAssertEqual(report.weeks.map(\.workSeconds), [60])
            XCTAssertEqual(report.streakDays, 1, "Friday: today has only the test run")
            let all = HistoryReport(entries: entries, limit: 5, weeks: 1, includeSpedUp: true, now: now)
            XCTAssertEqual(all.weeks.map(\.workSeconds), [960])
            XCTAssertEqual(all.streakDays, 2)
        }
    }
}
