import FIT
import Foundation
import XCTest

/// How hard it was: at the end of a run of the calendar in a terminal, one key for the
/// RPE and one for the feel, kept in the history's line, written in the FIT session
/// (`workout_rpe`, `workout_feel`), sent to the activity (`PUT /api/v1/activity/{id}`)
/// and read by a routine's `history`.
final class IntervalsRatingTests: IntervalsStandInTestCase {
    override var eventsFixture: String? { "short" }

    var binary: String { WorkoutBinary.binary }

    /// A pane with the stand-in's environment, running `run today` in it.
    func runToday(in pane: TmuxPane, _ options: String = "") throws {
        let exports = standIn.environment().map { "\($0)='\($1)'" }.sorted().joined(separator: " ")
        try pane.type("export \(exports) DBUS_SESSION_BUS_ADDRESS=; '\(binary)' run today --no-bell --no-sound \(options); "
                      + "echo \"exit $?\" > '\(pane.directory.path)/status'")
    }

    var historyLines: [String] {
        let text = (try? String(contentsOf: standIn.directory.appendingPathComponent("data/workout/history.jsonl"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    func testTheRatingReachesTheHistoryTheFITFileAndTheService() throws {
        let pane = try TmuxPane(columns: 100, rows: 30)
        try runToday(in: pane)
        XCTAssertTrue(pane.wait(timeout: 20) { pane.text.contains("How hard was it? RPE 1-9, 0 for 10") }, pane.text)
        try pane.send("0")
        XCTAssertTrue(pane.wait { pane.text.contains("How did you feel? 1 strong") }, pane.text)
        try pane.send("2")
        XCTAssertEqual(pane.file("status"), "exit 0", pane.text)
        XCTAssertTrue(pane.text.contains("How hard was it? RPE 1-9, 0 for 10 (any other key skips): 10"), pane.text)
        XCTAssertTrue(pane.text.contains("Sent "), pane.text)

        let line = try XCTUnwrap(historyLines.last)
        XCTAssertTrue(line.contains(#""rpe":10,"feel":2"#), line)
        XCTAssertEqual(historyLines.count, 1, "the line is amended, not added")

        let fit = try [UInt8](Data(contentsOf: standIn.directory.appendingPathComponent("last-upload.fit")))
        let session = try XCTUnwrap(FITDecoder.messages(fit).first { $0.global == 18 })
        XCTAssertEqual(session.numbers[193], 100, "workout_rpe is RPE × 10")
        XCTAssertEqual(session.numbers[192], 75, "workout_feel: 2 (good) of intervals.icu's 1–5 is 75 of FIT's 0–100")
        // Garmin's own SDK reads them by their names.
        let decoded = try ActivityDecoders.decodeFIT(standIn.directory.appendingPathComponent("last-upload.fit").path)
        XCTAssertEqual(decoded.garminErrors, [])
        let garmin = try XCTUnwrap(decoded.garmin["session_mesgs"]?.first)
        XCTAssertEqual(garmin["workout_rpe"] as? Int, 100)
        XCTAssertEqual(garmin["workout_feel"] as? Int, 75)

        let rating = try XCTUnwrap(standIn.requests().first { $0["method"] as? String == "PUT" })
        let upload = try XCTUnwrap(standIn.requests().first { $0["method"] as? String == "POST" })
        XCTAssertEqual(rating["path"] as? String, "/api/v1/activity/i" + String((upload["sha256"] as? String ?? "").prefix(8)))
        XCTAssertEqual(rating["json"] as? [String: Int], ["icu_rpe": 10, "feel": 2])

        // A routine's history reads them.
        let routine = standIn.directory.appendingPathComponent("reader.lua").path
        try """
            local last = history[1]
            return workout { name = "Two seconds", work(1, "Easy", { notes = "rpe " .. tostring(last and last.rpe) .. " feel " .. tostring(last and last.feel) }) }
            """.write(toFile: routine, atomically: false, encoding: .utf8)
        let plan = try WorkoutBinary.run(["plan", routine], environment: standIn.environment())
        XCTAssertEqual(plan.status, 0, plan.stderr)
        XCTAssertTrue(plan.stdout.contains("rpe 10 feel 2"), plan.stdout)
    }

    func testAnyOtherKeySkipsAndNothingIsSent() throws {
        let pane = try TmuxPane(columns: 100, rows: 30)
        try runToday(in: pane, "--no-upload")
        XCTAssertTrue(pane.wait(timeout: 20) { pane.text.contains("How hard was it?") }, pane.text)
        try pane.send("x")
        XCTAssertEqual(pane.file("status"), "exit 0", pane.text)
        XCTAssertTrue(pane.text.contains("(any other key skips): skipped"), pane.text)
        XCTAssertFalse(pane.text.contains("How did you feel?"), "skipping the first skips both")
        let line = try XCTUnwrap(historyLines.last)
        XCTAssertFalse(line.contains(#""rpe""#), line)
        XCTAssertTrue(standIn.requests().allSatisfy { $0["method"] as? String == "GET" })
    }
}
