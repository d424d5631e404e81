import Foundation
import XCTest

/// The athlete ends a set and counts, from outside a real run (issue 26): the page's
/// buttons and keys in headless Chromium, `POST /control`, and SIGUSR1; the rest after a
/// set counts from the moment it was done, and the history keeps each open segment's
/// length, its laps and the scores For Time and AMRAP record by themselves. A press
/// counts from a second into a set (a bouncing pedal's second press does not), so each
/// test waits for a cue past that second before pressing.
final class AthleteTests: XCTestCase {
    func dataHome() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("workout-athlete-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// The one history line a run wrote.
    func historyEntry(_ data: URL) throws -> [String: Any] {
        let text = try String(contentsOf: data.appendingPathComponent("workout/history.jsonl"), encoding: .utf8)
        let lines = text.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, text)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try XCTUnwrap(lines.first).utf8)) as? [String: Any])
    }

    func event(_ workout: ServingWorkout, _ name: String, index: Int? = nil,
               file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        try XCTUnwrap(workout.waitFor { $0["event"] as? String == name && (index == nil || $0["index"] as? Int == index) },
                      "no \(name) \(index.map(String.init) ?? ""): \(workout.lines.joined(separator: "\n"))", file: file, line: line)
    }

    func post(_ workout: ServingWorkout, _ body: String) throws -> RawResponse {
        try workout.request("POST", "/control", headers: ["Authorization: Bearer \(workout.token)"], body: body)
    }

    func testThePageEndsASetWithDoneAndCountsRounds() throws {
        for program in ["/usr/bin/python3", "/usr/bin/chromium", "/usr/bin/chromedriver"]
            where !FileManager.default.isExecutableFile(atPath: program) {
            throw Missing(program: program)
        }
        let data = try dataHome()
        let workout = try ServingWorkout(fixtures.appendingPathComponent("athlete.lua").path, dataHome: data)
        let screenshot = packageRoot.appendingPathComponent(".build/page-phone-set.png")
        let result = try spawn("/usr/bin/python3", [fixtures.appendingPathComponent("page_athlete.py").path,
                                                    workout.url, screenshot.path])
        XCTAssertEqual(result.status, 0, "page_athlete.py failed (is python3-selenium installed?)")
        let seen = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any],
                                 result.output)

        // The open set: DONE instead of Pause, its cap, a clock counting up from its start.
        XCTAssertEqual(seen["name"] as? String, "Squats")
        XCTAssertEqual(seen["done_shown"] as? Bool, true)
        XCTAssertEqual(seen["pause_shown"] as? Bool, false)
        XCTAssertEqual(seen["set"] as? String, "cap 5:00")
        let clocks = try XCTUnwrap(seen["clocks"] as? [String])
        let seconds = clocks.map(clockSeconds)
        XCTAssertEqual(seconds.count, 2)
        XCTAssertLessThan(seconds[0], seconds[1], "it counts up: \(clocks)")
        XCTAssertTrue(seconds.allSatisfy { $0 >= 0 && $0 < 30 }, "from the set's start, not toward its cap: \(clocks)")
        XCTAssertEqual(seen["one"] as? String, "1 rounds")
        XCTAssertEqual(seen["two"] as? String, "2 rounds")
        XCTAssertNotNil(seen["lap"] as? String, "the lap's split under the bar")
        XCTAssertEqual(seen["paused_resume"] as? Bool, true, "paused in a set: Resume beside DONE")
        XCTAssertEqual(seen["resumed"] as? Bool, true)
        // DONE: the rest starts, its countdown whole from the done moment.
        XCTAssertEqual(seen["rest"] as? String, "Rest")
        XCTAssertTrue(["0:30", "0:29"].contains(seen["rest_clock"] as? String ?? ""), "\(seen["rest_clock"] ?? "")")
        XCTAssertEqual(seen["rest_done_shown"] as? Bool, false)
        XCTAssertEqual(seen["rest_pause_shown"] as? Bool, true)
        XCTAssertEqual(seen["rest_tallies"] as? String, "2 rounds", "the tallies last the workout")
        XCTAssertEqual(seen["last_set"] as? String, "open: DONE when done")
        XCTAssertTrue(["0:00", "0:01"].contains(seen["last_clock"] as? String ?? ""),
                      "a set started while the page watched counts up from 0: \(seen["last_clock"] ?? "")")
        XCTAssertEqual(seen["finished"] as? Bool, true, "Enter on the page ended the last set")

        XCTAssertEqual(workout.waitForExit(), 0)
        let events = workout.events
        XCTAssertEqual(events.filter { $0["event"] as? String == "tally" }.compactMap { $0["value"] as? Int }, [1, 2])
        XCTAssertEqual(events.filter { $0["event"] as? String == "lap" }.count, 1)
        let ends = events.filter { $0["event"] as? String == "segment_end" }
        XCTAssertEqual(ends.map { $0["by"] as? String }, ["athlete", "athlete", "athlete"])
        XCTAssertEqual(ends.map { $0["skipped"] as? Bool }, [false, true, false], "done, Next, done")
        let names = events.compactMap { $0["event"] as? String }
        XCTAssertEqual(names.filter { $0 == "pause" || $0 == "resume" }, ["pause", "resume"], "space, twice")
        let entry = try historyEntry(data)
        let open = try XCTUnwrap(entry["open"] as? [[String: Any]], "\(entry)")
        XCTAssertEqual(open.map { $0["index"] as? Int }, [1, 3])
        XCTAssertEqual(open.map { $0["by"] as? String }, ["athlete", "athlete"])
        XCTAssertEqual((open[0]["laps"] as? [Double])?.count, 1)
        let firstEnd = try XCTUnwrap(ends.first?["t"] as? Double)
        let pause = try XCTUnwrap(events.first { $0["event"] as? String == "pause" }?["t"] as? Double)
        let resume = try XCTUnwrap(events.first { $0["event"] as? String == "resume" }?["t"] as? Double)
        XCTAssertEqual(try XCTUnwrap(open[0]["seconds"] as? Double), firstEnd - (resume - pause), accuracy: 0.05,
                       "the set's length, the pause left out")
    }

    func testPostControlEndsASetCountsAndLapsAndRefusesBadBodies() throws {
        let data = try dataHome()
        let workout = try ServingWorkout(fixtures.appendingPathComponent("sets.lua").path, dataHome: data)
        _ = try event(workout, "cue", index: 1)
        XCTAssertEqual(try post(workout, #"{"action":"lap"}"#).status, 204)
        XCTAssertEqual(try post(workout, #"{"action":"tally","name":"rounds","add":1}"#).status, 204)
        XCTAssertEqual(try post(workout, #"{"action":"tally","name":"reps","add":5}"#).status, 204)
        XCTAssertEqual(try post(workout, #"{"action":"tally"}"#).status, 204, "a round by default")
        let refused: [(String, String)] = [
            (#"{"action":"tally","add":1.5}"#, #""add" must be a whole number from -1000 to 1000"#),
            (#"{"action":"tally","add":5000}"#, #""add" must be a whole number"#),
            (#"{"action":"tally","name":""}"#, #""name" must be a tally's name"#),
            (#"{"action":"tally","name":"a\u001bb"}"#, "no control characters"),
            (#"{"action":"tally","name":7}"#, #""name" must be a tally's name"#),
            (#"{"action":"done","now":true}"#, #"unknown field "now" for action "done""#),
            (#"{"action":"lap","name":"rounds"}"#, #"unknown field "name" for action "lap""#),
            (#"{"action":"finish"}"#, "done, lap, add or tally"),
        ]
        for (body, message) in refused {
            let response = try post(workout, body)
            XCTAssertEqual(response.status, 400, body)
            XCTAssertTrue(response.body.contains(message), "\(body): \(response.body)")
        }
        XCTAssertEqual(try post(workout, #"{"action":"done"}"#).status, 204)
        let end = try event(workout, "segment_end", index: 1)
        XCTAssertEqual(end["by"] as? String, "athlete")
        XCTAssertEqual(end["skipped"] as? Bool, false)
        // The rest is planned from the done moment: 2 s from it, not from an expected end.
        let rest = try event(workout, "segment_start", index: 2)
        let second = try event(workout, "segment_start", index: 3)
        let done = try XCTUnwrap(end["t"] as? Double)
        XCTAssertEqual(try XCTUnwrap(rest["t"] as? Double), done, accuracy: 0.1)
        XCTAssertEqual(try XCTUnwrap(second["at"] as? Double), done + 2, accuracy: 0.01, "planned 2 s after done")
        XCTAssertEqual(second["open"] as? Bool, true)
        XCTAssertEqual(second["cap"] as? Double, 3)
        // The second set ends at its cap.
        let capped = try event(workout, "segment_end", index: 3)
        XCTAssertEqual(capped["by"] as? String, "cap")
        XCTAssertEqual(workout.waitForExit(), 0)

        let events = workout.events
        let tallies = events.filter { $0["event"] as? String == "tally" }
        XCTAssertEqual(tallies.map { "\($0["name"] ?? "") \($0["value"] ?? "")" }, ["rounds 1", "reps 5", "rounds 2"])
        let lap = try XCTUnwrap(events.first { $0["event"] as? String == "lap" })
        XCTAssertEqual(lap["index"] as? Int, 1)
        XCTAssertEqual(lap["lap"] as? Int, 1)
        // The cue's moment runs ahead of it, and the session's clock reads 1.2 s from then.
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(lap["split"] as? Double), 1.2, "not before the cue at 1.2 s")

        let entry = try historyEntry(data)
        let open = try XCTUnwrap(entry["open"] as? [[String: Any]], "\(entry)")
        XCTAssertEqual(open.map { $0["name"] as? String }, ["Set 1", "Set 2"])
        XCTAssertEqual(open.map { $0["by"] as? String }, ["athlete", "cap"])
        XCTAssertEqual(try XCTUnwrap(open[0]["seconds"] as? Double), done, accuracy: 0.05)
        XCTAssertEqual(open[1]["seconds"] as? Double, 3)
        XCTAssertEqual((open[0]["laps"] as? [Double])?.count, 1)
        XCTAssertEqual(entry["segments"] as? Int, 3, "segments stays the count")
    }

    /// `kill -USR1` is done, for a foot pedal or a script: it ends For Time, which records
    /// its time (lower is better); the AMRAP after it records the rounds counted.
    func testSIGUSR1EndsForTimeAndTheScoresAreRecorded() throws {
        let data = try dataHome()
        let workout = try ServingWorkout(fixtures.appendingPathComponent("scored.lua").path, dataHome: data)
        _ = try event(workout, "cue", index: 1)
        XCTAssertEqual(kill(workout.process.processIdentifier, SIGUSR1), 0)
        let end = try event(workout, "segment_end", index: 1)
        XCTAssertEqual(end["by"] as? String, "athlete")
        let time = try XCTUnwrap(workout.waitFor { $0["event"] as? String == "score" && $0["name"] as? String == "time" })
        XCTAssertEqual(time["better"] as? String, "lower")
        let done = try XCTUnwrap(end["t"] as? Double)
        XCTAssertEqual(try XCTUnwrap(time["value"] as? Double), done, accuracy: 0.05)
        let amrap = try event(workout, "segment_start", index: 3)
        XCTAssertEqual(try XCTUnwrap(amrap["at"] as? Double), done + 1, accuracy: 0.01, "the rest counted from done")
        _ = try event(workout, "cue", index: 3)
        for _ in 0..<3 { XCTAssertEqual(try post(workout, #"{"action":"tally"}"#).status, 204) }
        XCTAssertEqual(try post(workout, #"{"action":"tally","add":-1}"#).status, 204)
        let rounds = try XCTUnwrap(workout.waitFor { $0["event"] as? String == "score" && $0["name"] as? String == "rounds" })
        XCTAssertEqual(rounds["value"] as? Double, 2)
        XCTAssertEqual(rounds["better"] as? String, "higher")
        XCTAssertEqual(workout.waitForExit(), 0)

        let entry = try historyEntry(data)
        let scores = try XCTUnwrap(entry["scores"] as? [String: Double], "\(entry)")
        XCTAssertEqual(scores["rounds"], 2)
        XCTAssertEqual(try XCTUnwrap(scores["time"]), done, accuracy: 0.05)
        XCTAssertEqual(entry["lower_is_better"] as? [String], ["time"])
        let open = try XCTUnwrap(entry["open"] as? [[String: Any]])
        XCTAssertEqual(open.map { $0["name"] as? String }, ["Fran"], "the AMRAP is timed, not open")
        XCTAssertEqual(open.first?["by"] as? String, "athlete")
    }

    /// `0:32` → 32.
    func clockSeconds(_ text: String) -> Double {
        text.split(separator: ":").reduce(0) { $0 * 60 + (Double($1) ?? .nan) }
    }
}
