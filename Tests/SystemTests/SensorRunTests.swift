import Foundation
import XCTest

/// Sensors end to end, against the fake BlueZ (Fixtures/bluez_server.py) on a private
/// system bus: scanning and remembering, values in --json, the snapshot and the live
/// display, ERG writes, drop-outs, pairing, and a flood of notifications.
final class SensorRunTests: XCTestCase, FakeBlueZOutputs {
    let routine = fixtures.appendingPathComponent("sensors.lua").path
    /// The run's usual switches: nothing else on the bus, no sound server, no history.
    let quiet = "--no-sound --no-notify --allow-sleep --no-history"


    func testScanListsSensorsAndAddRemembersThem() throws {
        let outcome = try FakeBlueZ.run(devices: [FakeBlueZ.strap, FakeBlueZ.trainer], """
            "$WORKOUT" sensors --seconds 0.5 >> "$DIR/report"
            "$WORKOUT" sensors add c0:ff:ee:00:00:02 >> "$DIR/report"
            "$WORKOUT" sensors --seconds 0.5 | grep Trainer >> "$DIR/report"
            cat "$DIR/config/workout/sensors" >> "$DIR/report"
            "$WORKOUT" sensors remove C0:FF:EE:00:00:02 >> "$DIR/report"
            "$WORKOUT" sensors remove C0:FF:EE:00:00:02 2>> "$DIR/report"; echo "exit $?" >> "$DIR/report"
            """)
        XCTAssertEqual(outcome.report, [
            "C0:FF:EE:00:00:01  Strap  heart rate  no signal",
            "C0:FF:EE:00:00:02  Trainer  power, fitness machine (FTMS)  -70 dBm",
            "Remembered C0:FF:EE:00:00:02 in \(outcome.directory)/config/workout/sensors",
            "C0:FF:EE:00:00:02  Trainer  power, fitness machine (FTMS)  -70 dBm  remembered",
            "C0:FF:EE:00:00:02",
            "Forgot C0:FF:EE:00:00:02",
            "workout: C0:FF:EE:00:00:02 is not remembered",
            "exit 1",
        ])
        XCTAssertEqual(outcome.log.filter { $0.hasPrefix("discovery") },
                       ["discovery filter Transport,UUIDs", "discovery start", "discovery stop",
                        "discovery filter Transport,UUIDs", "discovery start", "discovery stop"])
    }

    /// The remembered strap and a --sensor trainer: samples at most once a second per
    /// sensor, the routine's sensor table and on_sample, the zone from max_hr in the
    /// athlete file (under a --set that names something else).
    func testSamplesReachJSONAndTheRoutine() throws {
        try FakeBlueZ.run(devices: [FakeBlueZ.strap, FakeBlueZ.trainer], """
            "$WORKOUT" sensors add C0:FF:EE:00:00:01 > /dev/null
            printf 'max_hr = 200  # measured on the track\\nftp = 180\\n' > "$DIR/config/workout/athlete"
            "$WORKOUT" run '\(routine)' --json \(quiet) --no-erg --set ftp=200 \\
              --sensor C0:FF:EE:00:00:01 --sensor C0:FF:EE:00:00:02 > "$DIR/out" 2> "$DIR/err"
            echo "exit $?" >> "$DIR/report"
            """) { outcome in
            XCTAssertEqual(outcome.report, ["exit 0"], text(outcome.directory, "err"))
            let all = events(outcome.directory)
            let samples = all.filter { $0["event"] as? String == "sample" }
            let strap = samples.filter { $0["sensor"] as? String == "C0:FF:EE:00:00:01" }
            let trainer = samples.filter { $0["sensor"] as? String == "C0:FF:EE:00:00:02" }
            XCTAssertGreaterThanOrEqual(strap.count, 3)
            XCTAssertGreaterThanOrEqual(trainer.count, 3)
            XCTAssertTrue(strap.allSatisfy { [72, 150].contains($0["hr"] as? Int) && $0["name"] as? String == "Strap" })
            XCTAssertTrue(trainer.allSatisfy { $0["power"] as? Int == 200 })
            XCTAssertTrue(trainer.contains { $0["cadence"] as? Double == 90 || $0["cadence"] as? Int == 90 })
            // At most one a second per sensor (t is in workout seconds, at 1x real ones).
            for list in [strap, trainer] {
                let times = list.compactMap { $0["t"] as? Double }
                XCTAssertTrue(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= 0.999 }, "\(times)")
            }
            let printed = all.filter { $0["event"] as? String == "log" }.compactMap { $0["text"] as? String }
            XCTAssertTrue(printed.contains { $0.hasPrefix("on_sample 1 hr=") && $0.contains("power=200") },
                          "\(printed)")
            XCTAssertTrue(printed.contains { $0 == "on_sample 1 hr=72 power=200 zone=1" || $0 == "on_sample 1 hr=150 power=200 zone=3" },
                          "\(printed)")
            XCTAssertTrue(printed.contains { $0 == "cue sensor.hr=72" || $0 == "cue sensor.hr=150" }, "\(printed)")
            let hooks = all.filter { ($0["text"] as? String)?.hasPrefix("on_sample") == true }.compactMap { $0["t"] as? Double }
            XCTAssertTrue(zip(hooks, hooks.dropFirst()).allSatisfy { $1 - $0 >= 0.999 }, "on_sample at most once a second: \(hooks)")
            XCTAssertEqual(text(outcome.directory, "err"), "")
        }
    }

    /// A session ridden with sensors keeps its samples beside the history, and exports to
    /// a FIT file that Garmin's SDK reads without a warning, with the heart rate and power
    /// as records and a lap per segment.
    func testASessionWithSensorsExportsToFITWithItsSamples() throws {
        try FakeBlueZ.run(devices: [FakeBlueZ.strap, FakeBlueZ.trainer], """
            export XDG_DATA_HOME="$DIR/data"
            "$WORKOUT" run '\(routine)' --json --no-sound --no-notify --allow-sleep --no-erg \\
              --sensor C0:FF:EE:00:00:01 --sensor C0:FF:EE:00:00:02 > "$DIR/out" 2> "$DIR/err"
            echo "exit $?" >> "$DIR/report"
            "$WORKOUT" history export last --format fit -o "$DIR/session.fit" 2>> "$DIR/err"
            echo "export $?" >> "$DIR/report"
            "$WORKOUT" history > "$DIR/list" 2>> "$DIR/err"
            """) { outcome in
            XCTAssertEqual(outcome.report, ["exit 0", "export 0"], text(outcome.directory, "err"))
            let history = text(outcome.directory, "data/workout/history.jsonl")
            XCTAssertTrue(history.contains(#""activity":"#), history)
            // The list reads the heart rate and power back: the strap gives 72 or 150, the trainer 200 W.
            let list = text(outcome.directory, "list")
            XCTAssertNotNil(list.range(of: #"hr \d+ avg (72|150) max  200 W avg"#, options: .regularExpression), list)
            let decoded = try ActivityDecoders.decodeFIT("\(outcome.directory)/session.fit")
            XCTAssertEqual(decoded.garminErrors, [])
            XCTAssertTrue(decoded.integrity)
            XCTAssertEqual(decoded.secondErrors, [])
            let records = decoded.garmin["record_mesgs"] ?? []
            XCTAssertGreaterThanOrEqual(records.count, 3, "a record a second with samples")
            XCTAssertTrue(records.contains { [72, 150].contains($0["heart_rate"] as? Int) }, "\(records)")
            XCTAssertTrue(records.contains { $0["power"] as? Int == 200 }, "\(records)")
            XCTAssertEqual(decoded.garmin["lap_mesgs"]?.count, events(outcome.directory)
                            .filter { $0["event"] as? String == "segment_end" }.count)
        }
    }

    /// ERG: Request Control, the first segment's 200 W on its boundary, the ramp of
    /// 100 → 200 W (50–100 % of FTP 200) a step a second, the easiest setting at the end.
    func testERGTargetsAreWrittenOnTheBoundaryWithRamps() throws {
        let outcome = try FakeBlueZ.run(devices: [FakeBlueZ.trainer], """
            "$WORKOUT" run '\(routine)' --json \(quiet) --set ftp=200 --sensor C0:FF:EE:00:00:02 > "$DIR/out" 2> "$DIR/err"
            echo "exit $?" >> "$DIR/report"
            cat "$DIR/err" >> "$DIR/report"
            """)
        XCTAssertEqual(outcome.report, ["exit 0"])
        let writes = outcome.log.filter { $0.hasPrefix("write") }.map { $0.split(separator: " ").last.map(String.init) ?? "" }
        // 0x05 + little-endian watts: 200 = c800, then the ramp, then 0x04 00 (resistance 0) at the end.
        XCTAssertEqual(writes.first, "00")
        XCTAssertEqual(writes.dropFirst().first, "05c800")
        XCTAssertEqual(writes.last, "0400")
        let ramp = writes.dropFirst(2).dropLast().compactMap { hex -> Int? in
            guard hex.hasPrefix("05"), let low = UInt8(hex.dropFirst(2).prefix(2), radix: 16),
                  let high = UInt8(hex.dropFirst(4), radix: 16) else { return nil }
            return Int(low) | Int(high) << 8
        }
        XCTAssertEqual(ramp, [100, 133, 167], "a step a second through a 3 s ramp from 100 W to 200 W")
    }

    /// A trainer that refuses control: one warning, and the workout goes on.
    func testARefusedTargetWarnsOnce() throws {
        let refusing = FakeBlueZ.trainer.replacingOccurrences(of: "\"paired\": true,", with: "\"paired\": true, \"refuse\": [0, 5],")
        let outcome = try FakeBlueZ.run(devices: [refusing], """
            "$WORKOUT" run '\(routine)' --json \(quiet) --set ftp=200 --sensor C0:FF:EE:00:00:02 > "$DIR/out" 2> "$DIR/err"
            echo "exit $?" >> "$DIR/report"
            cat "$DIR/err" >> "$DIR/report"
            """)
        XCTAssertEqual(outcome.report, [
            "exit 0",
            "workout: the trainer refused its power target (control not permitted); the resistance is yours",
        ])
    }

    /// A percent-of-FTP target in a run without an FTP: the trainer gets the 200 W of the
    /// first segment, nothing for the second, and the run says why, once.
    func testAPercentTargetWithoutAnFTPWarnsOnceWhenATrainerIsConnected() throws {
        let outcome = try FakeBlueZ.run(devices: [FakeBlueZ.trainer], """
            "$WORKOUT" run '\(routine)' --json \(quiet) --sensor C0:FF:EE:00:00:02 > "$DIR/out" 2> "$DIR/err"
            echo "exit $?" >> "$DIR/report"
            cat "$DIR/err" >> "$DIR/report"
            """)
        XCTAssertEqual(outcome.report, [
            "exit 0",
            #"workout: warning: sensors.lua:12: segment 2 "Easy" has power = { low = 50, high = 100 } (percent of FTP) "#
                + "but no FTP is set, so a trainer gets no power target there; give it watts = … instead, or set ftp = … "
                + "(--set ftp=250, or ftp = 250 in the athlete file ~/.config/workout/athlete)",
        ])
        let writes = outcome.log.filter { $0.hasPrefix("write") }.map { $0.split(separator: " ").last.map(String.init) ?? "" }
        XCTAssertEqual(writes, ["00", "05c800", "0400"], "control, 200 W, the easiest at the end: no ramp without an FTP")
    }

    func testADeviceThatNeedsPairingIsToldSo() throws {
        let unpaired = """
            {"address": "C0:FF:EE:00:00:03", "name": "New strap", "known": true, "paired": false, "needs_pairing": true,
             "services": ["180d"]}
            """
        let outcome = try FakeBlueZ.run(devices: [unpaired], """
            "$WORKOUT" run '\(routine)' --json \(quiet) --speed 6 --sensor C0:FF:EE:00:00:03 > "$DIR/out" 2> "$DIR/err"
            echo "exit $?" >> "$DIR/report"
            cat "$DIR/err" >> "$DIR/report"
            """)
        XCTAssertEqual(outcome.report, [
            "exit 0",
            "workout: sensor New strap (C0:FF:EE:00:00:03) needs pairing: pair it in the desktop's Bluetooth settings "
                + "(or with bluetoothctl pair C0:FF:EE:00:00:03), then start again",
        ])
    }

    /// Out of range mid-run: one warning, the values stale (nil to the routine), a
    /// reconnection once it is back, and the workout's timers as if nothing happened.
    func testADeviceVanishingAndComingBack() throws {
        try FakeBlueZ.run(devices: [FakeBlueZ.strap], """
            "$WORKOUT" run '\(routine)' --json \(quiet) --sensor C0:FF:EE:00:00:01 > "$DIR/out" 2> "$DIR/err" & workout=$!
            waitfor '"sample"' "$DIR/out"
            send vanish C0:FF:EE:00:00:01
            waitfor 'dropped out' "$DIR/err"
            sleep 1.2
            send appear C0:FF:EE:00:00:01
            wait $workout; echo "exit $?" >> "$DIR/report"
            """) { outcome in
            XCTAssertEqual(outcome.report, ["exit 0"])
            let err = text(outcome.directory, "err").split(separator: "\n").map(String.init)
            XCTAssertEqual(err.filter { $0.contains("dropped out") },
                           ["workout: sensor Strap (C0:FF:EE:00:00:01) dropped out; reconnecting"])
            XCTAssertTrue(err.contains("workout: sensor Strap (C0:FF:EE:00:00:01) is back"), "\(err)")
            XCTAssertGreaterThanOrEqual(outcome.log.filter { $0 == "connect C0:FF:EE:00:00:01" }.count, 2)
            let all = events(outcome.directory)
            // Samples came again after the reconnection, and every boundary kept its time.
            let samples = all.filter { $0["event"] as? String == "sample" }.compactMap { $0["t"] as? Double }
            XCTAssertTrue(samples.contains { $0 > 3 }, "\(samples)")
            let ends = all.filter { $0["event"] as? String == "segment_end" }.compactMap { $0["at"] as? Double }
            XCTAssertEqual(ends, [3, 6])
        }
    }

    /// 2,000 notifications at once: the run handles them a batch at a time between its
    /// timers, and --json still gets at most one sample a second.
    func testANotificationFloodNeitherDelaysTimersNorFloodsTheOutput() throws {
        // A strap that notifies only when told.
        let strap = FakeBlueZ.strap.replacingOccurrences(of: "\"every\": 0.25", with: "\"every\": 1000")
        try FakeBlueZ.run(devices: [strap], """
            "$WORKOUT" run '\(routine)' --json \(quiet) --sensor C0:FF:EE:00:00:01 > "$DIR/out" 2> "$DIR/err" & workout=$!
            waitfor notify-on
            send notify C0:FF:EE:00:00:01 2a37 1648
            waitfor '"sample"' "$DIR/out"
            sleep 1.1
            send flood C0:FF:EE:00:00:01 2a37 16aa 2000
            waitfor 'flooded'
            wait $workout; echo "exit $?" >> "$DIR/report"
            """) { outcome in
            XCTAssertEqual(outcome.report, ["exit 0"])
            let all = events(outcome.directory)
            let samples = all.filter { $0["event"] as? String == "sample" }
            XCTAssertLessThanOrEqual(samples.count, 8, "at most one a second in a 6 s workout")
            XCTAssertTrue(samples.contains { $0["hr"] as? Int == 170 }, "the flood's value was read")
            // A flood handled in one go would hold the main thread for its whole length.
            let late = all.compactMap { $0["late_ms"] as? Double }
            XCTAssertFalse(late.isEmpty)
            XCTAssertLessThan(late.max() ?? 0, 50, "\(late)")
        }
    }

    /// The live display shows the heart rate with its zone in the title row, and the
    /// served page's snapshot carries the same values.
    func testValuesOnTheDisplayAndThePage() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else { throw Missing(program: "tmux") }
        try FakeBlueZ.run(devices: [FakeBlueZ.strap], """
            tmux -L "workout-sensors-$$" -f /dev/null new-session -d -x 100 -y 30 \\
              "env TERM=xterm-256color DBUS_SYSTEM_BUS_ADDRESS='$DBUS_SYSTEM_BUS_ADDRESS' '$WORKOUT' run '\(routine)' \(quiet) \\
               --set max_hr=200 --sensor C0:FF:EE:00:00:01; sleep 30"
            n=0; until tmux -L "workout-sensors-$$" capture-pane -p | head -n 1 | grep -q bpm; do
              n=$((n + 1)); [ $n -gt 100 ] && break; sleep 0.05; done
            tmux -L "workout-sensors-$$" capture-pane -p | head -n 1 | tr -s ' ' >> "$DIR/report"
            tmux -L "workout-sensors-$$" kill-server
            "$WORKOUT" run '\(routine)' --json \(quiet) --set max_hr=200 --serve 127.0.0.1:0 \\
              --sensor C0:FF:EE:00:00:01 > "$DIR/out" 2> "$DIR/err" & workout=$!
            waitfor '"sample"' "$DIR/out"
            /usr/bin/python3 - "$DIR/out" >> "$DIR/report" <<'PY'
            import json, sys, urllib.parse, urllib.request
            serve = next(json.loads(l) for l in open(sys.argv[1]) if '"serve"' in l)
            url = urllib.parse.urlsplit(serve["url"])
            token = urllib.parse.parse_qs(url.query)["token"][0]
            request = urllib.request.Request(f"http://{url.netloc}/state", headers={"Authorization": "Bearer " + token})
            sensors = json.load(urllib.request.urlopen(request))["sensors"]
            print("page", sensors["hr"] in (72, 150), sensors["hr_zone"] in (1, 3), sensors["stale"])
            PY
            wait $workout; echo "exit $?" >> "$DIR/report"
            """) { outcome in
            XCTAssertEqual(outcome.report.count, 3, "\(outcome.report)")
            let title = outcome.report.first ?? ""
            XCTAssertTrue(title.hasPrefix(" Sensors "), title)
            XCTAssertTrue(title.contains("72 bpm Z1") || title.contains("150 bpm Z3"), title)
            XCTAssertTrue(title.hasSuffix(" 1/2"), title)
            XCTAssertEqual(Array(outcome.report.dropFirst()), ["page True True []", "exit 0"])
        }
    }

    /// Runs `routine` with a strap that notifies only when told: once the second segment
    /// starts it sends 150 bpm, waits for `seen` in the output, then sends `next` (hex).
    private func runWithToldStrap(_ routine: String, seen: String, next: String,
                                  check: (FakeBlueZ.Outcome) throws -> Void) throws {
        let strap = FakeBlueZ.strap.replacingOccurrences(of: "\"every\": 0.25", with: "\"every\": 1000")
        try FakeBlueZ.run(devices: [strap], """
            "$WORKOUT" run '\(routine)' --json \(quiet) --sensor C0:FF:EE:00:00:01 > "$DIR/out" 2> "$DIR/err" & workout=$!
            waitfor '"index":2,' "$DIR/out"
            send notify C0:FF:EE:00:00:01 2a37 1696
            waitfor '\(seen)' "$DIR/out"
            send notify C0:FF:EE:00:00:01 2a37 \(next)
            wait $workout; echo "exit $?" >> "$DIR/report"
            """) { outcome in
            XCTAssertEqual(outcome.report, ["exit 0"], text(outcome.directory, "err"))
            try check(outcome)
        }
    }

    /// `rest{ until_hr_below = 120 }` ends on the strap's sample, long before its cap.
    func testUntilHRBelowEndsARest() throws {
        try runWithToldStrap(fixtures.appendingPathComponent("until.lua").path, seen: #""hr":150"#, next: "1670") { outcome in
            let ends = events(outcome.directory).filter { $0["event"] as? String == "segment_end" }
            XCTAssertEqual(ends.map { $0["by"] as? String }, ["timer", "sample", "timer"])
            let recovered = try XCTUnwrap(ends.dropFirst().first?["t"] as? Double)
            XCTAssertLessThan(recovered, 10, "ended by the sample, not at its 20 s cap")
        }
    }

    /// A strap that sends 65,535 bpm (a legal 16-bit value): no sample says it, and the
    /// routine and the display have no heart rate (stale) until a real one comes.
    func testAnAbsurdHeartRateIsNoValue() throws {
        let routine = FileManager.default.temporaryDirectory.appendingPathComponent("absurd-\(UUID().uuidString).lua")
        defer { try? FileManager.default.removeItem(at: routine) }
        try """
            return workout { name = "Absurd", countdown = 0, rounds(10, { work(1) }),
              on_segment_start = function() print("hr=" .. tostring(sensor.hr)) end }
            """.write(to: routine, atomically: false, encoding: .utf8)
        // 0x17: a 16-bit rate, contact detected; 0xffff: 65,535 bpm.
        try runWithToldStrap(routine.path, seen: "hr=150", next: "17ffff") { outcome in
            let all = events(outcome.directory)
            XCTAssertFalse(all.contains { $0["event"] as? String == "sample" && $0["hr"] as? Int != 150 }, "\(all)")
            let printed = all.filter { $0["event"] as? String == "log" }.compactMap { $0["text"] as? String }
            XCTAssertTrue(printed.contains("hr=150"), "\(printed)")
            XCTAssertEqual(printed.last, "hr=nil", "\(printed)")
            XCTAssertFalse(printed.contains("hr=65535"), "\(printed)")
        }
    }
}
