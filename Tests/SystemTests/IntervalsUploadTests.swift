import Foundation
import XCTest

/// A session of the calendar back on it: `run today` uploads its FIT activity paired with
/// the planned event; offline or busy (5xx, 429) it waits in the state folder for
/// `workout intervals sync` or the next run; 409 means it is there already; nothing is
/// sent twice or lost; `--no-upload` and the athlete file's `intervals_upload = no`.
final class IntervalsUploadTests: IntervalsStandInTestCase {
    override var eventsFixture: String? { "short" }

    var queue: URL { standIn.directory.appendingPathComponent("state/workout/intervals-uploads") }

    /// The FIT files waiting in the queue.
    func waiting() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: queue.path)) ?? []).filter { $0.hasSuffix(".fit") }.sorted()
    }

    func uploads() -> [[String: Any]] {
        standIn.requests().filter { $0["method"] as? String == "POST" }
    }

    /// The calendar's copies: each file the stand-in took (answered 201).
    func taken() -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: standIn.directory.path)) ?? []).filter { $0.hasPrefix("uploaded-") }.count
    }

    func testARunOfTodayIsSentPairedWithItsEvent() throws {
        let run = try workout(["run", "today"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("finished after 0:02"), run.stdout)
        let sent = try XCTUnwrap(run.lines.last)
        XCTAssertTrue(sent.hasPrefix("Sent ") && sent.contains(".fit to intervals.icu (activity i"), run.stdout)
        let upload = try XCTUnwrap(uploads().first)
        XCTAssertEqual(uploads().count, 1)
        XCTAssertEqual(upload["path"] as? String, "/api/v1/athlete/0/activities")
        XCTAssertEqual((upload["query"] as? [String: [String]])?["paired_event_id"], ["201"])
        XCTAssertEqual(upload["user"] as? String, "API_KEY")
        let fit = try Data(contentsOf: standIn.directory.appendingPathComponent("last-upload.fit"))
        XCTAssertEqual(String(decoding: fit[8..<12], as: UTF8.self), ".FIT")
        XCTAssertEqual(fit.count, upload["size"] as? Int)
        XCTAssertEqual(waiting(), [], "nothing is left waiting")
        XCTAssertEqual(taken(), 1)
        // Only the calendar's own: an ordinary routine's session is not sent.
        let ordinary = try workout(["run", try shortRoutine()])
        XCTAssertEqual(ordinary.status, 0, ordinary.stderr)
        XCTAssertEqual(uploads().count, 1)
    }

    func shortRoutine() throws -> String {
        let path = standIn.directory.appendingPathComponent("short.lua").path
        try #"return workout { name = "Short", work(1) }"#.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// Busy, the session waits; a sync while the service is unreachable
    /// keeps it; the sync that reaches the service sends it once, and the next finds nothing.
    func testAnOfflineSessionWaitsAndSyncSendsItOnce() throws {
        let first = try workout(["run", "today"])
        XCTAssertEqual(first.status, 0, first.stderr)
        // The events are fetched; the upload is what fails.
        try standIn.answer("503 POST")
        let busy = try workout(["run", "today"])
        XCTAssertEqual(busy.status, 0, busy.stderr)
        XCTAssertTrue(busy.stderr.contains("waits in \(queue.path) for `workout intervals sync`: intervals.icu failed to answer (503)"),
                      busy.stderr)
        XCTAssertEqual(waiting().count, 1)
        XCTAssertEqual(taken(), 1, "the first run's session went at once")

        let unreachable = try workout(["intervals", "sync"], environment: ["INTERVALS_ICU_URL": "http://127.0.0.1:1"])
        XCTAssertEqual(unreachable.status, 1)
        XCTAssertTrue(unreachable.stderr.contains("cannot reach the service"), unreachable.stderr)
        XCTAssertEqual(waiting().count, 1, "nothing is lost")

        try standIn.answer("ok")
        let sync = try workout(["intervals", "sync"])
        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertTrue(sync.stdout.hasPrefix("Sent "), sync.stdout)
        XCTAssertEqual(waiting(), [])
        XCTAssertEqual(taken(), 2)
        XCTAssertEqual((uploads().last?["query"] as? [String: [String]])?["paired_event_id"], ["201"], "paired after waiting too")
        let again = try workout(["intervals", "sync"])
        XCTAssertEqual(again.status, 0)
        XCTAssertEqual(again.stdout, "Nothing waits to go to intervals.icu.\n")
        XCTAssertEqual(uploads().count, 3, "one upload each: the first run's, the refused one, the synced one")
    }

    /// 429 keeps the session; the next run (any routine) sends it.
    func testTheNextRunSendsWhatWaits() throws {
        try standIn.answer("429 POST")
        let limited = try workout(["run", "today"])
        XCTAssertTrue(limited.stderr.contains("asks to slow down (429)"), limited.stderr)
        XCTAssertEqual(waiting().count, 1)
        try standIn.answer("ok")
        let next = try workout(["run", try shortRoutine()])
        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertTrue(next.stdout.contains("Sent "), next.stdout)
        XCTAssertEqual(waiting(), [])
        XCTAssertEqual(taken(), 1)
    }

    /// The service has it already (an answer lost after it took the file): 409, and the
    /// session leaves the queue without a second copy.
    func testAlreadyThereIsNotSentAgain() throws {
        try standIn.answer("409 POST")
        let run = try workout(["run", "today"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("intervals.icu already had "), run.stdout)
        XCTAssertEqual(waiting(), [])
        XCTAssertEqual(taken(), 0)
    }

    func testNoUploadAndTheAthleteFilesLineKeepTheSessionHere() throws {
        let flag = try workout(["run", "today", "--no-upload"])
        XCTAssertEqual(flag.status, 0, flag.stderr)
        let athlete = standIn.directory.appendingPathComponent("config/workout/athlete")
        try FileManager.default.createDirectory(at: athlete.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "ftp = 250\nintervals_upload = no\n".write(to: athlete, atomically: false, encoding: .utf8)
        let line = try workout(["run", "today"])
        XCTAssertEqual(line.status, 0, line.stderr)
        XCTAssertEqual(uploads().count, 0)
        XCTAssertEqual(waiting(), [])
        try "intervals_upload = maybe\n".write(to: athlete, atomically: false, encoding: .utf8)
        let bad = try workout(["run", "today"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertEqual(bad.stderr, "workout: \(athlete.path):1: intervals_upload must be yes or no, got maybe\n")
    }

    func testARunWithoutHistoryIsNotSentAndSaysWhy() throws {
        let run = try workout(["run", "today", "--no-history"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("a run with --no-history is not sent to intervals.icu"), run.stderr)
        XCTAssertEqual(uploads().count, 0)
    }

    func testASpedUpRunIsNotSent() throws {
        let run = try workout(["run", "today", "--speed", "2"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("a run at --speed 2 is not sent to intervals.icu"), run.stderr)
        XCTAssertEqual(uploads().count, 0)
    }
}
