@testable import Activity
import Foundation
@testable import History
@testable import IntervalEngine
import XCTest

/// `history export --format fit|tcx`, `run --export-fit` and `history forget` with an
/// activity file, through the built binary.
extension EndToEndTests {
    /// A history with two sessions, the latest with a sample file of three seconds.
    private func historyWithSamples() throws -> (data: URL, samples: URL) {
        let data = try dataHome()
        let workout = data.appendingPathComponent("workout")
        try FileManager.default.createDirectory(at: workout.appendingPathComponent("activities"), withIntermediateDirectories: true)
        let laps = #""laps":[{"index":1,"name":"Hard","kind":"work","start":0,"elapsed":2,"timer":2},{"index":2,"name":"Easy","kind":"rest","start":2,"elapsed":1,"timer":1}]"#
        let lines = [
            #"{"program":"Older","file":"/r.lua","sha256":"","started":"2026-11-20T07:00:00Z","ended":"2026-11-20T07:00:03Z","completed":true,"elapsed":3,"segments_done":2,"segments":2,"work_seconds":2,"#
                + laps + "}",
            #"{"program":"Ride","file":"/r.lua","sha256":"","started":"2026-11-21T07:00:00Z","ended":"2026-11-21T07:00:03Z","completed":true,"elapsed":3,"segments_done":2,"segments":2,"work_seconds":2,"active":3,"#
                + laps + #","activity":"2026-11-21T07-00-00.csv"}"#,
        ]
        try (lines.joined(separator: "\n") + "\n").write(to: workout.appendingPathComponent("history.jsonl"), atomically: false, encoding: .utf8)
        let samples = workout.appendingPathComponent("activities/2026-11-21T07-00-00.csv")
        let start = Timestamp.date(from: "2026-11-21T07:00:00Z")!.timeIntervalSince1970
        try (ActivityFile.header + (0..<3).map { "\($0),\(Int(start) + $0).000,\($0 < 2 ? 1 : 2),\(140 + $0),\(200 + $0),90,\n" }.joined())
            .write(to: samples, atomically: false, encoding: .utf8)
        return (data, samples)
    }

    /// `last` counts back over a damaged line (a history written before the decoders
    /// dropped a 65,535 bpm); the session exported instead is said, never silent.
    func testExportingLastPastADamagedLineSaysSo() throws {
        let (data, _) = try historyWithSamples()
        let history = data.appendingPathComponent("workout/history.jsonl")
        let damaged = #"{"program":"Late","file":"/r.lua","sha256":"","started":"2026-11-22T07:00:00Z","ended":"2026-11-22T07:00:03Z","completed":true,"elapsed":3,"segments_done":2,"segments":2,"work_seconds":2,"hr":{"avg":150,"max":65535,"zones":[0,0,0,0,0]}}"#
        try (String(contentsOf: history, encoding: .utf8) + damaged + "\n").write(to: history, atomically: false, encoding: .utf8)
        let out = try dataHome()
        let result = try workout(["history", "export", "last", "--format", "tcx"], environment: ["XDG_DATA_HOME": data.path, "TZ": "UTC"],
                                 directory: out)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("history.jsonl:3: that line is damaged and not counted, so last is the session "
                                             + "started 2026-11-21T07:00:00 (line 2)"), result.stderr)
    }

    func testExportingASessionAsFITAndTCX() throws {
        let (data, _) = try historyWithSamples()
        let out = try dataHome()
        let environment = ["XDG_DATA_HOME": data.path, "TZ": "UTC"]

        let fit = try workout(["history", "export", "last", "--format", "fit"], environment: environment, directory: out)
        XCTAssertEqual(fit.status, 0, fit.stderr)
        XCTAssertEqual(fit.stdout, "Wrote 2026-11-21T07-00-00.fit: 2 laps, 3 seconds of samples.\n")
        let decoded = try ActivityDecoders.decodeFIT(out.appendingPathComponent("2026-11-21T07-00-00.fit").path)
        XCTAssertEqual(decoded.garminErrors, [])
        XCTAssertTrue(decoded.integrity)
        XCTAssertEqual(decoded.secondErrors, [])
        XCTAssertEqual(decoded.garmin["record_mesgs"]?.map { $0["heart_rate"] as? Int }, [140, 141, 142])
        XCTAssertEqual(decoded.garmin["lap_mesgs"]?.map { $0["avg_power"] as? Int }, [201, 202])
        XCTAssertEqual(decoded.garmin["workout_step_mesgs"]?.map { $0["wkt_step_name"] as? String }, ["Hard", "Easy"])

        let tcx = out.appendingPathComponent("older.tcx").path
        let older = try workout(["history", "export", "2026-11-20", "--format", "tcx", "-o", tcx], environment: environment)
        XCTAssertEqual(older.status, 0, older.stderr)
        XCTAssertEqual(older.stdout, "Wrote \(tcx): 2 laps, no samples.\n")
        XCTAssertNil(try ActivityDecoders.tcxProblems(tcx))

        // To standard output, when it is not a terminal.
        let piped = try workout(["history", "export", "2", "--format", "tcx", "-o", "-"], environment: environment)
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(piped.stdout, try String(contentsOfFile: tcx, encoding: .utf8))

        let folder = out.appendingPathComponent("all")
        let all = try workout(["history", "export", "--all", "--format", "fit", "-o", folder.path], environment: environment)
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(),
                       ["2026-11-20T07-00-00.fit", "2026-11-21T07-00-00.fit"])

        for (arguments, message) in [
            (["--format", "fit"], "needs a session"),
            (["last", "--format", "csv"], "exports every session"),
            (["--all", "--format", "fit"], "--all needs -o DIR"),
        ] {
            let refused = try workout(["history", "export"] + arguments, environment: environment)
            XCTAssertEqual(refused.status, 64, refused.stderr)
            XCTAssertTrue(refused.stderr.contains(message), refused.stderr)
        }
        let missing = try workout(["history", "export", "7", "--format", "fit"], environment: environment, directory: out)
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "workout: there is no session 7: the history has 2 (1 is the latest)\n")
    }

    func testForgettingASessionRemovesItsSamples() throws {
        let (data, samples) = try historyWithSamples()
        let environment = ["XDG_DATA_HOME": data.path, "TZ": "UTC"]
        let forgot = try workout(["history", "forget", "--yes"], environment: environment)
        XCTAssertEqual(forgot.status, 0, forgot.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: samples.path))
        XCTAssertEqual(try HistoryFile(path: data.appendingPathComponent("workout/history.jsonl").path).read().entries.map(\.program),
                       ["Older"])
    }

    func testARunWritesItsFITFileAtTheEndWithExportFIT() throws {
        let data = try dataHome()
        let folder = data.appendingPathComponent("sync")
        let routine = data.appendingPathComponent("r.lua")
        try #"return workout { name = "Short", countdown = 0, work(2, "Go"), rest(1, "Breathe") }"#
            .write(to: routine, atomically: false, encoding: .utf8)
        let run = try workout(["run", routine.path, "--speed", "100", "--export-fit", folder.path],
                              environment: ["XDG_DATA_HOME": data.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        XCTAssertEqual(files.count, 1)
        let file = try XCTUnwrap(files.first)
        XCTAssertTrue(run.stdout.hasSuffix("Wrote \(folder.appendingPathComponent(file).path).\n"), run.stdout)
        XCTAssertFalse(run.stdout.contains("Samples kept"), "no sensors, no samples")
        let decoded = try ActivityDecoders.decodeFIT(folder.appendingPathComponent(file).path)
        XCTAssertEqual(decoded.garminErrors, [])
        XCTAssertTrue(decoded.integrity)
        XCTAssertEqual(decoded.garmin["workout_step_mesgs"]?.map { $0["wkt_step_name"] as? String }, ["Go", "Breathe"])
        XCTAssertEqual(decoded.garmin["lap_mesgs"]?.map { $0["intensity"] as? String }, ["active", "rest"])

        let refused = try workout(["run", routine.path, "--no-history", "--export-fit", folder.path])
        XCTAssertEqual(refused.status, 64)
        XCTAssertTrue(refused.stderr.contains("--export-fit goes with a real run that is recorded"), refused.stderr)
    }
}

extension EndToEndTests {
    /// Two sessions started in the same second, and two at 02:30 on the night the clocks
    /// go back (00:30 and 01:30 UTC in Berlin, 25 October 2026), were exported by `--all`
    /// into one file each pair while the command said "Wrote 4 sessions": each session has
    /// a file of its own, the later ones' names told apart by `-2`.
    func testLookAlikeSessionsExportToAFileEach() throws {
        let data = try dataHome()
        let folderOfHistory = data.appendingPathComponent("workout")
        try FileManager.default.createDirectory(at: folderOfHistory, withIntermediateDirectories: true)
        let lines = ["2026-11-21T07:00:00Z", "2026-11-21T07:00:00Z", "2026-10-25T00:30:00Z", "2026-10-25T01:30:00Z"]
            .enumerated().map { index, started in
                #"{"program":"S\#(index)","file":"/r.lua","sha256":"","started":"\#(started)","ended":"2026-11-21T07:00:03Z","completed":true,"elapsed":3,"segments_done":1,"segments":1,"work_seconds":3}"#
            }
        try (lines.joined(separator: "\n") + "\n").write(to: folderOfHistory.appendingPathComponent("history.jsonl"),
                                                           atomically: false, encoding: .utf8)
        let folder = try dataHome().appendingPathComponent("out")
        let result = try workout(["history", "export", "--all", "--format", "tcx", "-o", folder.path],
                                 environment: ["XDG_DATA_HOME": data.path, "TZ": "Europe/Berlin"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("Wrote 4 sessions"), result.stdout)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(files, ["2026-10-25T02-30-00-2.tcx", "2026-10-25T02-30-00.tcx",
                               "2026-11-21T08-00-00-2.tcx", "2026-11-21T08-00-00.tcx"])
    }
}
