import Foundation
import XCTest
@testable import History
@testable import IntervalEngine

/// Scores and speeds as the built binary records them, and `history stats`, `export` and
/// `forget` on real files.
extension EndToEndTests {
    func scores(_ line: String) throws -> [String: Double] {
        try XCTUnwrap(try object(line)["scores"] as? [String: Double], line)
    }

    func testScoresAndTheSpeedReachTheHistoryHoweverTheSessionEnds() throws {
        let routine = fixtures.appendingPathComponent("scores.lua").path
        let finished = try dataHome()
        XCTAssertEqual(try workout(["run", routine, "--speed", "1000"], environment: ["XDG_DATA_HOME": finished.path]).status, 0)
        let line = try XCTUnwrap(historyLines(finished).first)
        XCTAssertEqual(try scores(line), ["reps": 12, "time": 40, "final": 2])
        XCTAssertTrue(line.contains(#""speed":1000,"scores":{"reps":12,"time":40,"final":2},"lower_is_better":["time"],"#), line)

        for (number, status) in [(SIGTERM, Int32(143)), (SIGINT, Int32(130))] {
            let data = try dataHome()
            let result = try workout(["run", routine, "--json"], environment: ["XDG_DATA_HOME": data.path]) {
                self.signal(number, $0, afterFirstLineOf: $1)
            }
            XCTAssertEqual(result.status, status, result.stderr)
            let lines = historyLines(data)
            XCTAssertEqual(lines.count, 1)
            XCTAssertEqual(try scores(lines[0]), ["reps": 12, "time": 40, "final": 0], "signal \(number)")
            XCTAssertEqual(try object(lines[0])["speed"] as? Double, 1)
        }

        // A hook that records, then raises: the score stays, the run exits 1.
        let data = try dataHome()
        let failing = data.appendingPathComponent("failing.lua")
        try """
            return workout { name = "Failing", work(1),
              on_segment_end = function() record("rounds", 3); error("boom") end }
            """.write(to: failing, atomically: false, encoding: .utf8)
        let result = try workout(["run", failing.path, "--speed", "1000"], environment: ["XDG_DATA_HOME": data.path])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(try scores(try XCTUnwrap(historyLines(data).first)), ["rounds": 3])
    }

    /// The seven days of HistoryStatsTests across Berlin's change to summer time, a
    /// sped-up run and a line whose number is out of range.
    func fixtureHistory() throws -> URL {
        let data = try dataHome()
        let lines = [
            ("Tabata", "2026-03-27T23:30:00+01:00", 240, 1), ("Tabata", "2026-03-28T23:45:00+01:00", 240, 1),
            ("HIIT", "2026-03-29T00:30:00+01:00", 960, 1), ("HIIT", "2026-03-30T07:00:00+02:00", 960, 1),
            ("Tabata", "2026-03-31T23:59:00+02:00", 240, 1), ("Tabata", "2026-04-01T00:15:00+02:00", 240, 1),
            ("HIIT", "2026-04-02T06:00:00+02:00", 960, 1), ("HIIT", "2026-04-05T06:00:00+02:00", 900, 20),
        ].map { program, started, work, speed in
            #"{"program":"\#(program)","file":"/r.lua","sha256":"","started":"\#(started)","ended":"\#(started)","completed":true,"elapsed":1200,"segments_done":9,"segments":9,"work_seconds":\#(work),"speed":\#(speed),"scores":{}}"#
        }
        var text = lines.joined(separator: "\n") + "\n"
        text += #"{"program":"Huge","file":"/r.lua","sha256":"","started":"2026-04-02T06:00:00Z","ended":"2026-04-02T06:00:00Z","completed":true,"elapsed":1e999,"segments_done":9,"segments":9,"work_seconds":1}"# + "\n"
        try FileManager.default.createDirectory(at: data.appendingPathComponent("workout"), withIntermediateDirectories: true)
        try text.write(to: data.appendingPathComponent("workout/history.jsonl"), atomically: false, encoding: .utf8)
        return data
    }

    func testStatsOverAFixtureHistoryInBerlin() throws {
        let data = try fixtureHistory()
        let environment = ["XDG_DATA_HOME": data.path, "TZ": "Europe/Berlin", "NO_COLOR": "1", "LANG": "C"]
        let json = try workout(["history", "stats", "--json"], environment: environment)
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertEqual(json.stderr, "workout: history.jsonl:9: skipped a damaged line\n")
        XCTAssertFalse(json.stdout.contains("inf") || json.stdout.contains("nan"), json.stdout)
        let stats = try object(json.stdout)
        XCTAssertEqual(stats["sessions"] as? Int, 7)
        XCTAssertEqual(stats["work_seconds"] as? Double, 3840)
        XCTAssertEqual((stats["streak"] as? [String: Int])?["longest"], 7)
        XCTAssertEqual((stats["days"] as? [[String: Any]])?.compactMap { $0["date"] as? String },
                       ["2026-03-27", "2026-03-28", "2026-03-29", "2026-03-30", "2026-03-31", "2026-04-01", "2026-04-02"])
        XCTAssertEqual((stats["routines"] as? [[String: Any]])?.compactMap { $0["program"] as? String }, ["Tabata", "HIIT"])
        XCTAssertEqual(stats["sped_up_left_out"] as? Int, 1)

        let all = try object(try workout(["history", "stats", "--json", "--all"], environment: environment).stdout)
        XCTAssertEqual(all["sessions"] as? Int, 8)
        let utc = try object(try workout(["history", "stats", "--json"], environment: environment.merging(["TZ": "UTC"]) { $1 }).stdout)
        XCTAssertEqual((utc["streak"] as? [String: Int])?["longest"], 2)
        let filtered = try object(try workout(["history", "stats", "--json", "--since", "2026-03-29", "--until", "2026-03-31",
                                               "--routine", "HIIT"], environment: environment).stdout)
        XCTAssertEqual(filtered["sessions"] as? Int, 2)
        let unknown = try workout(["history", "stats", "--routine", "Tabbata"], environment: environment)
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderr.hasSuffix("workout: no session of Tabbata in the history (its routines: HIIT, Tabata)\n"),
                      unknown.stderr)

        // As text: ASCII shades (LANG=C), the week of 30 March last, with its legend.
        let text = try workout(["history", "stats", "--until", "2026-04-05", "--weeks", "3"], environment: environment)
        XCTAssertEqual(text.status, 0, text.stderr)
        let rows = text.stdout.components(separatedBy: "\n")
        XCTAssertEqual(Array(rows[0...13]), [
            "7 sessions, 7 finished, 1:04:00 of work in 2:20:00",
            "Streak: 0 days (longest 7 days)",
            "",
            "Last 3 weeks, 2026-03-16 to 2026-04-05",
            "    Mar Apr",
            // 4 and 16 minutes of work: the first and the second shade.
            "Mon . . + ",
            "Tue . . - ",
            "Wed . . - ",
            "Thu . . + ",
            "Fri . - . ",
            "Sat . - . ",
            "Sun . + . ",
            "    . no work  - under 10 min  + 10-20  * 20-40  # 40 min or more",
            "",
        ], text.stdout)
        XCTAssertEqual(Array(rows[14...17]), [
            "Work per week",
            "  2026-03-16  ------------------------------      0:00",
            "  2026-03-23  ##################------------     24:00",
            "  2026-03-30  ##############################     40:00",
        ], text.stdout)
        let space = { (count: Int) in String(repeating: " ", count: count) }
        XCTAssertTrue(rows.contains("Routine" + space(15) + "Sessions  Finished        Work  Last"), text.stdout)
        XCTAssertTrue(rows.contains("Tabata" + space(23) + "4" + space(9) + "4" + space(7) + "16:00  2026-04-01"), text.stdout)
        XCTAssertEqual(text.lines.last, "1 sped-up session left out (--all counts them)")
        XCTAssertFalse(text.stdout.contains("\u{1B}"), "NO_COLOR")
    }

    func testBadDatesAreUsageErrors() throws {
        for arguments in [["--since", "2026-02-30"], ["--until", "yesterday"], ["--since", "2026-05-02", "--until", "2026-05-01"]] {
            let result = try workout(["history", "stats"] + arguments)
            XCTAssertEqual(result.status, 64, result.stderr)
            XCTAssertTrue(result.stderr.contains(arguments[0]), result.stderr)
        }
    }

    func testExportRoundTripsThroughARealCSVReader() throws {
        let data = try dataHome()
        // A routine cannot name itself with a line break, but a history written by other
        // tools (or by hand) can hold one.
        let name = "Push, \"pull\"\nand legs"
        let routine = data.appendingPathComponent("odd.lua")
        try "return workout { name = \"odd\", countdown = 0, work(1), on_finish = function() record(\"a, b\", 2.5) end }"
            .write(to: routine, atomically: false, encoding: .utf8)
        for speed in ["1000", "20"] {
            XCTAssertEqual(try workout(["run", routine.path, "--speed", speed], environment: ["XDG_DATA_HOME": data.path]).status, 0)
        }
        let path = data.appendingPathComponent("workout/history.jsonl")
        let history = try String(contentsOf: path, encoding: .utf8)
        try history.replacingOccurrences(of: #""program":"odd""#, with: #""program":"Push, \"pull\"\nand legs""#)
            .write(to: path, atomically: false, encoding: .utf8)
        let csv = try workout(["history", "export"], environment: ["XDG_DATA_HOME": data.path])
        XCTAssertEqual(csv.status, 0, csv.stderr)
        XCTAssertTrue(csv.stdout.hasPrefix("started,ended,program,file,completed,elapsed,segments_done,segments,work_seconds,speed,scores,open\r\n"))
        // Python's csv module reads it back; its rows are printed as JSON.
        let exported = data.appendingPathComponent("export.csv")
        try Data(csv.stdout.utf8).write(to: exported)
        let python = try spawn("/usr/bin/python3", ["-c", "import csv, json, sys; "
                                                    + "print(json.dumps(list(csv.reader(open(sys.argv[1], newline='')))))",
                                                    exported.path])
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(python.output.utf8)) as? [[String]], python.output)
        XCTAssertEqual(rows.count, 3)
        XCTAssertEqual(rows[0], HistoryExport.columns)
        for (row, speed) in zip(rows.dropFirst(), ["1000", "20"]) {
            XCTAssertEqual(row[2], name)
            XCTAssertEqual(row[3], routine.standardizedFileURL.path)
            XCTAssertEqual(row[4], "true")
            XCTAssertEqual(row[9], speed)
            XCTAssertEqual(try JSONSerialization.jsonObject(with: Data(row[10].utf8)) as? [String: Double], ["a, b": 2.5])
            XCTAssertNotNil(Timestamp.date(from: row[0]))
        }
        let json = try workout(["history", "export", "--format", "json"], environment: ["XDG_DATA_HOME": data.path])
        let entries = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(entries.compactMap { $0["program"] as? String }, [name, name])
        XCTAssertEqual(entries.compactMap { $0["speed"] as? Double }, [1000, 20])
        let none = try workout(["history", "export", "--since", "2000-01-01", "--until", "2000-01-02"],
                               environment: ["XDG_DATA_HOME": data.path])
        XCTAssertEqual(none.stdout, HistoryExport.columns.joined(separator: ",") + "\r\n")
    }

    func testTheListMarksSpedUpSessionsAndShowsScores() throws {
        let data = try dataHome()
        let routine = fixtures.appendingPathComponent("scores.lua").path
        XCTAssertEqual(try workout(["run", routine, "--speed", "20"], environment: ["XDG_DATA_HOME": data.path]).status, 0)
        let list = try workout(["history"], environment: ["XDG_DATA_HOME": data.path])
        let session = try XCTUnwrap(list.lines.first { $0.contains("Scores") }, list.stdout)
        XCTAssertTrue(session.contains("  at 20x  finished  2/2 segments  0:03 work  reps 12, time 40, final 2"), session)
        XCTAssertTrue(list.lines.contains { $0.hasPrefix("  week of ") && $0.contains(" 0 sessions") }, list.stdout)
        let all = try workout(["history", "--all"], environment: ["XDG_DATA_HOME": data.path])
        XCTAssertTrue(all.lines.contains { $0.hasPrefix("  week of ") && $0.contains(" 1 session ") }, all.stdout)
    }
}
