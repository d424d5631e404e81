import Foundation
import XCTest

/// A runner's and a rower's machines end to end, against the fake BlueZ's treadmill,
/// rower and foot pod (Fixtures/bluez_server.py, `Machine`): their data decoded into
/// samples, a distance step ended by the belt's distance, and the FIT and TCX files.
final class RunnerSensorTests: XCTestCase, FakeBlueZOutputs {
    let routine = fixtures.appendingPathComponent("treadmill.lua").path
    let quiet = "--no-sound --no-notify --allow-sleep --no-history"


    func testATreadmillSessionEndsItsStepOnTheBeltsDistance() throws {
        try FakeBlueZ.run(devices: [FakeBlueZ.treadmill()], """
            export XDG_DATA_HOME="$DIR/data"
            "$WORKOUT" run '\(routine)' --json --no-sound --no-notify --allow-sleep --sensor C0:FF:EE:00:00:10 > "$DIR/out" 2> "$DIR/err"
            echo "exit $?" >> "$DIR/report"
            "$WORKOUT" history export last --format fit -o "$DIR/session.fit" 2>> "$DIR/err"
            echo "export $?" >> "$DIR/report"
            """) { outcome in
            XCTAssertEqual(outcome.report, ["exit 0", "export 0"], text(outcome.directory, "err"))
            // Its FIT as Garmin's SDK reads it: a run, the belt's incline as each record's grade.
            let decoded = try ActivityDecoders.decodeFIT("\(outcome.directory)/session.fit")
            XCTAssertEqual(decoded.garminErrors, [])
            XCTAssertEqual(decoded.garmin["session_mesgs"]?.first?["sport"] as? String, "running")
            let records = decoded.garmin["record_mesgs"] ?? []
            XCTAssertFalse(records.isEmpty)
            XCTAssertTrue(records.allSatisfy { abs(($0["grade"] as? Double ?? 0) - 1) < 0.001 }, "the incline as grade: \(records)")
            XCTAssertEqual(text(outcome.directory, "err"), "", "a distance source was there: no warning")
            let all = events(outcome.directory)
            let ends = all.filter { $0["event"] as? String == "segment_end" }
            XCTAssertEqual(ends.map { $0["by"] as? String }, ["timer", "distance", "timer"])
            // 400 m at 40 × 10 km/h takes 3.6 s; the cap is a minute.
            let step = try XCTUnwrap(ends.dropFirst().first?["t"] as? Double)
            XCTAssertGreaterThan(step, 2 + 3.3)
            XCTAssertLessThan(step, 2 + 8)
            let start = all.first { $0["event"] as? String == "segment_start" && $0["index"] as? Int == 2 }
            XCTAssertEqual(start?["distance"] as? Int, 400)
            let samples = all.filter { $0["event"] as? String == "sample" }
            XCTAssertTrue(samples.contains { ($0["distance"] as? Double ?? 0) > 400 }, "\(samples)")
            XCTAssertTrue(samples.allSatisfy { $0["speed"] as? Double == 10 || $0["speed"] as? Int == 10 })
            XCTAssertTrue(samples.allSatisfy { $0["pace"] as? Double == 360 || $0["pace"] as? Int == 360 })
            XCTAssertTrue(samples.allSatisfy { $0["incline"] as? Double == 1 || $0["incline"] as? Int == 1 })
            let printed = all.filter { $0["event"] as? String == "log" }.compactMap { $0["text"] as? String }
            XCTAssertTrue(printed.contains { $0.hasPrefix("on_sample 2 distance=") && $0.hasSuffix(" pace=360") }, "\(printed)")
        }
    }

    func testARowerShowsItsSplitAndStrokeRateAndItsFITHasThem() throws {
        let rower = routine.replacingOccurrences(of: "treadmill.lua", with: "rower.lua")
        try FakeBlueZ.run(devices: [FakeBlueZ.rower()], """
            export XDG_DATA_HOME="$DIR/data"
            "$WORKOUT" run '\(rower)' --json --no-sound --no-notify --allow-sleep --sensor C0:FF:EE:00:00:11 > "$DIR/out" 2> "$DIR/err"
            echo "exit $?" >> "$DIR/report"
            "$WORKOUT" history export last --format fit -o "$DIR/session.fit" 2>> "$DIR/err"
            echo "export $?" >> "$DIR/report"
            "$WORKOUT" history export last --format tcx -o "$DIR/session.tcx" 2>> "$DIR/err"
            """) { outcome in
            XCTAssertEqual(outcome.report, ["exit 0", "export 0"], text(outcome.directory, "err"))
            let decoded = try ActivityDecoders.decodeFIT("\(outcome.directory)/session.fit")
            XCTAssertEqual(decoded.garminErrors, [])
            XCTAssertEqual(decoded.garmin["session_mesgs"]?.first?["sport"] as? String, "rowing")
            let records = decoded.garmin["record_mesgs"] ?? []
            XCTAssertTrue(records.contains { $0["cadence"] as? Int == 24 }, "strokes a minute as the record's cadence: \(records)")
            XCTAssertTrue(records.contains { ($0["distance"] as? Double ?? 0) > 100 }, "\(records)")
            XCTAssertTrue(records.contains { abs(($0["enhanced_speed"] as? Double ?? 0) - 4.167) < 0.01 }, "2:00/500m as speed")
            XCTAssertTrue(text(outcome.directory, "session.tcx").contains("<DistanceMeters>"))
            let history = text(outcome.directory, "data/workout/history.jsonl")
            XCTAssertTrue(history.contains(#""split":{"avg":120"#) && history.contains(#""stroke_rate":{"avg":24"#), history)
            let all = events(outcome.directory)
            XCTAssertEqual(all.filter { $0["event"] as? String == "segment_end" }.map { $0["by"] as? String },
                           ["distance", "timer"])
            let samples = all.filter { $0["event"] as? String == "sample" }
            XCTAssertFalse(samples.isEmpty)
            XCTAssertTrue(samples.allSatisfy { ($0["split"] as? NSNumber)?.doubleValue == 120 }, "\(samples)")
            XCTAssertTrue(samples.allSatisfy { ($0["stroke_rate"] as? NSNumber)?.doubleValue == 24 }, "\(samples)")
            XCTAssertTrue(samples.allSatisfy { ($0["power"] as? NSNumber)?.intValue == 150 }, "\(samples)")
        }
    }

    func testAFootPodGivesPaceCadenceAndCalibratedDistance() throws {
        try FakeBlueZ.run(devices: [FakeBlueZ.footPod], """
            mkdir -p "$DIR/config/workout"; printf 'foot_pod_factor = 1.05\\n' > "$DIR/config/workout/athlete"
            "$WORKOUT" run '\(routine)' --json \(quiet) --sensor C0:FF:EE:00:00:12 > "$DIR/out" 2> "$DIR/err"
            echo "exit $?" >> "$DIR/report"
            """) { outcome in
            XCTAssertEqual(outcome.report, ["exit 0"], text(outcome.directory, "err"))
            let all = events(outcome.directory)
            XCTAssertEqual(all.filter { $0["event"] as? String == "segment_end" }.map { $0["by"] as? String },
                           ["timer", "distance", "timer"])
            let samples = all.filter { $0["event"] as? String == "sample" }
            XCTAssertFalse(samples.isEmpty)
            // 12 km/h read 5 % fast: 12.6 km/h, 285.7 s a km; the cadence as sent.
            XCTAssertTrue(samples.allSatisfy { abs((($0["speed"] as? NSNumber)?.doubleValue ?? 0) - 12.6) < 0.02 }, "\(samples)")
            XCTAssertTrue(samples.allSatisfy { abs((($0["pace"] as? NSNumber)?.doubleValue ?? 0) - 285.7) < 0.2 }, "\(samples)")
            XCTAssertTrue(samples.allSatisfy { ($0["cadence"] as? NSNumber)?.doubleValue == 172 }, "\(samples)")
        }
    }

    func testWithoutADistanceSourceTheStartSaysSoAndTheCapEnds() throws {
        let capped = routine.replacingOccurrences(of: "treadmill.lua", with: "treadmill-capped.lua")
        try FakeBlueZ.run(devices: [FakeBlueZ.strap], """
            "$WORKOUT" run '\(capped)' --json \(quiet) --speed 10 --sensor C0:FF:EE:00:00:01 > "$DIR/out" 2> "$DIR/err"
            echo "exit $?" >> "$DIR/report"
            "$WORKOUT" run '\(capped)' --json \(quiet) --speed 10 --no-sensors > "$DIR/out2" 2> "$DIR/err2"
            echo "exit $?" >> "$DIR/report"
            """) { outcome in
            XCTAssertEqual(outcome.report, ["exit 0", "exit 0"], text(outcome.directory, "err"))
            XCTAssertEqual(events(outcome.directory).filter { $0["event"] as? String == "segment_end" }.map { $0["by"] as? String },
                           ["timer", "cap", "timer"])
            XCTAssertEqual(text(outcome.directory, "err"), "workout: warning: treadmill-capped.lua:4: segment 2 \"Rep\" "
                + "ends after 400 m of a treadmill's, rower's or foot pod's distance, but no sensor has given a distance "
                + "yet; without one it ends at its cap (0:10) or when you mark it done\n")
            XCTAssertTrue(text(outcome.directory, "err2").contains("but no sensors are connected; without one it ends at "
                + "its cap (0:10)"), text(outcome.directory, "err2"))
        }
    }

    /// The control point writes of the fake's log, in order: `00`, `07`, `02e803`, …
    func writes(_ log: [String]) -> [String] {
        log.filter { $0.hasPrefix("write C0:FF:EE:00:00:10 2ad9 ") }.map { String($0.split(separator: " ")[3]) }
    }

    func testEachStepsSpeedAndInclineAreSetOnceAndTheEndStopsTheBelt() throws {
        let steps = routine.replacingOccurrences(of: "treadmill.lua", with: "treadmill-steps.lua")
        try FakeBlueZ.run(devices: [FakeBlueZ.treadmill()], """
            "$WORKOUT" run '\(steps)' --json \(quiet) --sensor C0:FF:EE:00:00:10 > "$DIR/out" 2> "$DIR/err"
            echo "exit $?" >> "$DIR/report"
            """) { outcome in
            XCTAssertEqual(outcome.report, ["exit 0"], text(outcome.directory, "err"))
            XCTAssertEqual(text(outcome.directory, "err"), "")
            // Control, start, 10 km/h and 1 %; 12 km/h and 2.5 %; 8 km/h; stop.
            XCTAssertEqual(writes(outcome.log), ["00", "07", "02e803", "030a00", "02b004", "031900", "022003", "0801"])
            let ends = events(outcome.directory).filter { $0["event"] as? String == "segment_end" }
            XCTAssertEqual(ends.map { $0["by"] as? String }, ["timer", "distance", "timer"])
            let samples = events(outcome.directory).filter { $0["event"] as? String == "sample" }
            XCTAssertTrue(samples.contains { ($0["speed"] as? NSNumber)?.doubleValue == 12 }, "the belt took 12 km/h")
        }
    }

    func testTheSafetyKeyPausesTheWorkoutAtOnceAndControlStops() throws {
        let long = routine.replacingOccurrences(of: "treadmill.lua", with: "treadmill-long.lua")
        try FakeBlueZ.run(devices: [FakeBlueZ.treadmill()], """
            "$WORKOUT" run '\(long)' --json \(quiet) --sensor C0:FF:EE:00:00:10 > "$DIR/out" 2> "$DIR/err" & run=$!
            waitfor "2ad9 02b004" && send safety C0:FF:EE:00:00:10
            waitfor '"event":"pause"' "$DIR/out"; sleep 1
            kill -INT $run; wait $run; echo "exit $?" >> "$DIR/report"
            """) { outcome in
            XCTAssertEqual(outcome.report.last, "exit 130", text(outcome.directory, "err"))
            XCTAssertTrue(text(outcome.directory, "err").contains("workout: the treadmill stopped: its safety key was pulled; "
                + "the workout is paused, and it sets no speed until you start the belt at the machine"),
                          text(outcome.directory, "err"))
            XCTAssertEqual(writes(outcome.log), ["00", "07", "02b004"], "nothing after the safety key, not even a stop")
            let all = events(outcome.directory)
            let pause = try XCTUnwrap(all.first { $0["event"] as? String == "pause" })
            XCTAssertEqual(pause["index"] as? Int, 1)
        }
    }

    func testASpeedSetOnTheConsoleIsKept() throws {
        let steps = routine.replacingOccurrences(of: "treadmill.lua", with: "treadmill-steps.lua")
        try FakeBlueZ.run(devices: [FakeBlueZ.treadmill()], """
            "$WORKOUT" run '\(steps)' --json \(quiet) --sensor C0:FF:EE:00:00:10 > "$DIR/out" 2> "$DIR/err" & run=$!
            waitfor "2ad9 030a00" && send console C0:FF:EE:00:00:10 9.5
            wait $run; echo "exit $?" >> "$DIR/report"
            """) { outcome in
            XCTAssertEqual(outcome.report, ["exit 0"], text(outcome.directory, "err"))
            // The warm-up's 10 km/h, then the console's 9.5, kept: the next step's 12 km/h is its own change.
            XCTAssertEqual(writes(outcome.log), ["00", "07", "02e803", "030a00", "02b004", "031900", "022003", "0801"])
            let samples = events(outcome.directory).filter { $0["event"] as? String == "sample" && $0["t"] as? Double ?? 9 < 2 }
            XCTAssertTrue(samples.contains { ($0["speed"] as? NSNumber)?.doubleValue == 9.5 }, "\(samples)")
        }
    }

    // MARK: - Real machines' quirks: one clear warning each, and the workout goes on

    /// Runs the quirks' routine against `device` with `extra` arguments: the report, the
    /// warnings, the segment ends' causes and the samples.
    func quirk(_ device: String, address: String = "C0:FF:EE:00:00:10", _ extra: String = "",
               routine name: String = "treadmill-quirks.lua") throws
        -> (report: [String], err: String, ends: [String?], samples: [[String: Any]], log: [String]) {
        let quirks = routine.replacingOccurrences(of: "treadmill.lua", with: name)
        var result: ([String], String, [String?], [[String: Any]], [String]) = ([], "", [], [], [])
        try FakeBlueZ.run(devices: [device], """
            "$WORKOUT" run '\(quirks)' --json \(quiet) \(extra) --sensor \(address) > "$DIR/out" 2> "$DIR/err"
            echo "exit $?" >> "$DIR/report"
            """) { outcome in
            let all = events(outcome.directory)
            result = (outcome.report, text(outcome.directory, "err"),
                      all.filter { $0["event"] as? String == "segment_end" }.map { $0["by"] as? String },
                      all.filter { $0["event"] as? String == "sample" }, outcome.log)
        }
        return result
    }

    func testSpeedWritesIgnored() throws {
        let run = try quirk(FakeBlueZ.treadmill(quirks: ["ignore_speed"]))
        XCTAssertEqual(run.report, ["exit 0"])
        XCTAssertEqual(run.err, "workout: the treadmill took the speed 12 km/h but stays at 10 km/h (its firmware may "
                       + "ignore speed writes): set it on the console; the workout goes on\n")
        XCTAssertEqual(run.ends, ["timer", "distance", "timer"])
    }

    func testAWalkingPadInMph() throws {
        let run = try quirk(FakeBlueZ.treadmill(quirks: ["mph"]))
        XCTAssertEqual(run.report, ["exit 0"])
        XCTAssertEqual(run.err, "workout: the treadmill sends its speed in mph as if km/h (7.46 for 12 km/h): its speed "
                       + "and pace read low; the workout goes on\n")
        XCTAssertEqual(run.ends, ["timer", "distance", "timer"])
    }

    func testInclineInWholePercent() throws {
        let run = try quirk(FakeBlueZ.treadmill(quirks: ["whole_percent"]))
        XCTAssertEqual(run.report, ["exit 0"])
        XCTAssertEqual(run.err, "workout: the treadmill sets its incline in whole percent: 2.5 % is 3 %\n")
        XCTAssertEqual(run.ends, ["timer", "distance", "timer"])
    }

    func testCommandsOnlyWithTheBeltMoving() throws {
        let run = try quirk(FakeBlueZ.treadmill(quirks: ["moving_only"], running: false))
        XCTAssertEqual(run.report, ["exit 0"])
        XCTAssertEqual(run.err, "workout: the treadmill takes its target speed only with the belt moving; it is sent "
                       + "again once the belt moves\n")
        XCTAssertEqual(run.ends, ["timer", "distance", "timer"])
        XCTAssertEqual(writes(run.log).prefix(6), ["00", "07", "02b004", "031900", "02b004", "031900"],
                       "refused with the belt standing, sent again once it moved")
        XCTAssertTrue(run.samples.contains { ($0["speed"] as? NSNumber)?.doubleValue == 12 })
    }

    func testDistanceCountingWithTheBeltStopped() throws {
        // The belt never starts (--no-erg) but its distance counts on: the step ends at its cap.
        let run = try quirk(FakeBlueZ.treadmill(quirks: ["counts_after_stop"], running: false), "--no-erg")
        XCTAssertEqual(run.report, ["exit 0"])
        XCTAssertEqual(run.err, "workout: treadmill Treadmill counts distance with its belt standing: that distance is not counted\n")
        XCTAssertEqual(run.ends, ["timer", "cap", "timer"])
        // The machine counted on, and none of it is the run's: every sample says 0 m.
        XCTAssertFalse(run.samples.isEmpty)
        XCTAssertTrue(run.samples.allSatisfy { ($0["distance"] as? NSNumber)?.doubleValue == 0 }, "\(run.samples)")
    }

    func testAStrokeRateWithoutStrokes() throws {
        let run = try quirk(FakeBlueZ.rower(quirks: ["phantom_strokes"]), address: "C0:FF:EE:00:00:11", routine: "rower.lua")
        XCTAssertEqual(run.report, ["exit 0"])
        XCTAssertEqual(run.err, "workout: rower Rower sends a stroke rate that changes while its stroke count stands still: "
                       + "that stroke rate is made up, and is left out until strokes are counted again\n")
        XCTAssertEqual(run.ends, ["distance", "timer"])
        XCTAssertTrue(run.samples.dropFirst(2).allSatisfy { $0["stroke_rate"] == nil }, "\(run.samples)")
    }
}
