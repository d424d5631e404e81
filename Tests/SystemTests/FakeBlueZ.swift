import Foundation
import XCTest

/// A private system bus with a BlueZ of the project's own on it (Fixtures/bluez_server.py),
/// for a shell script that runs workout, bluetoothctl or both against it. The bus has the
/// system bus's policy (Fixtures/system-bus.conf); the script sees it as
/// DBUS_SYSTEM_BUS_ADDRESS. Both daemons are stopped when the script ends, however it ends.
enum FakeBlueZ {
    /// What the fake logged (`$LOG`), and what the script wrote to `$DIR/report`.
    struct Outcome {
        var log: [String]
        var report: [String]
        var directory: String
    }

    /// A heart-rate strap, known (paired) from the start, notifying 72 then 150 bpm.
    static let strap = """
        {"address": "C0:FF:EE:00:00:01", "name": "Strap", "rssi": -52, "known": true, "paired": true,
         "services": ["180d"], "notify": {"2a37": {"every": 0.25, "values": ["1648", "1696"]}}}
        """

    /// An FTMS trainer with a power meter, found by scanning.
    static let trainer = """
        {"address": "C0:FF:EE:00:00:02", "name": "Trainer", "rssi": -70, "paired": true,
         "services": ["1826", "1818"],
         "notify": {"2ad2": {"every": 0.25, "values": ["4400c409b400c800"]},
                    "2a63": {"every": 0.25, "values": ["2000c8000a000004", "2000c8000c000008"]}}}
        """

    /// A treadmill the fake runs (Fixtures/bluez_server.py, `Machine`): its belt at 10 km/h
    /// and 1 % incline, its distance counting 40 times as fast (400 m in 3.6 s), with the
    /// `quirks` given.
    static func treadmill(quirks: [String] = [], running: Bool = true, speed: Double = 10) -> String {
        machine("C0:FF:EE:00:00:10", "Treadmill", """
            "kind": "treadmill", "speed": \(speed), "incline": 1, "every": 0.25, "time_lapse": 40,
            "running": \(running)
            """, quirks: quirks)
    }

    /// A rower at 24 strokes a minute and a 2:00/500m split (15 km/h), time-lapsed as the treadmill.
    static func rower(quirks: [String] = []) -> String {
        machine("C0:FF:EE:00:00:11", "Rower", #""kind": "rower", "speed": 15, "stroke_rate": 24, "every": 0.25, "time_lapse": 40"#,
                quirks: quirks)
    }

    /// A foot pod at 12 km/h and 172 steps a minute, time-lapsed as the treadmill.
    static let footPod = """
        {"address": "C0:FF:EE:00:00:12", "name": "Pod", "known": true, "paired": true, "services": ["1814"],
         "machine": {"kind": "footpod", "speed": 12, "cadence": 172, "every": 0.25, "time_lapse": 40}}
        """

    private static func machine(_ address: String, _ name: String, _ fields: String, quirks: [String]) -> String {
        let list = quirks.map { "\"\($0)\"" }.joined(separator: ", ")
        return """
            {"address": "\(address)", "name": "\(name)", "known": true, "paired": true, "services": ["1826"],
             "machine": {\(fields), "quirks": [\(list)]}}
            """
    }

    /// Runs `script` (sh) with `$WORKOUT` the binary, `$DIR` a scratch directory (kept
    /// until `keep` returns), `$LOG` the fake's log, `send LINE` a command to the fake
    /// (see bluez_server.py) and `waitfor TEXT [FILE]` waiting up to 10 s for a line.
    @discardableResult
    static func run(devices: [String], _ script: String, keep: (Outcome) throws -> Void = { _ in }) throws -> Outcome {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon") else {
            throw Missing(program: "dbus-daemon")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("workout-bluez-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dir = directory.path
        let config = try String(contentsOf: fixtures.appendingPathComponent("system-bus.conf"), encoding: .utf8)
            .replacingOccurrences(of: "@SOCKET@", with: "\(dir)/bus")
        try config.write(toFile: "\(dir)/bus.conf", atomically: false, encoding: .utf8)
        try "{\"devices\": [\(devices.joined(separator: ",\n"))]}".write(toFile: "\(dir)/devices.json",
                                                                         atomically: false, encoding: .utf8)
        let server = fixtures.appendingPathComponent("bluez_server.py").path
        let whole = """
            DIR='\(dir)'; LOG="$DIR/log"; touch "$LOG" "$DIR/report"; mkfifo "$DIR/control"
            WORKOUT='\(WorkoutBinary.binary)'
            export XDG_DATA_HOME="$DIR/data" XDG_CONFIG_HOME="$DIR/config" HOME="$DIR"
            waitfor() { f="${2:-$LOG}"; n=0; until grep -q -- "$1" "$f" 2>/dev/null; do
              n=$((n + 1)); [ $n -gt 200 ] && { echo "timed out waiting for $1 in $f" >> "$DIR/report"; return 1; }; sleep 0.05; done; }
            send() { echo "$*" > "$DIR/control"; }
            /usr/bin/dbus-daemon --config-file="$DIR/bus.conf" --nofork --print-address=1 > "$DIR/address" 2> /dev/null & bus=$!
            server=
            trap 'kill $server $bus 2> /dev/null; wait' EXIT
            waitfor unix: "$DIR/address" || exit \(PrivateBus.serverDidNotStart)
            export DBUS_SYSTEM_BUS_ADDRESS="$(head -n 1 "$DIR/address")"
            unset DBUS_SESSION_BUS_ADDRESS
            /usr/bin/python3 '\(server)' "$LOG" "$DIR/devices.json" "$DIR/control" > "$DIR/ready" 2> "$DIR/server-errors" & server=$!
            waitfor ready "$DIR/ready" || { cat "$DIR/server-errors" >&2; exit \(PrivateBus.serverDidNotStart); }
            \(script)
            """
        let result = try spawn("/bin/sh", ["-c", whole])
        XCTAssertNotEqual(result.status, PrivateBus.serverDidNotStart, "the fake BlueZ did not start")
        func lines(_ name: String) -> [String] {
            ((try? String(contentsOfFile: "\(dir)/\(name)", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        let outcome = Outcome(log: lines("log"), report: lines("report"), directory: dir)
        try keep(outcome)
        return outcome
    }
}

/// What a run against the fake BlueZ left in its scratch folder: the `--json` events of a
/// file, and a file's text (empty when it is not there).
protocol FakeBlueZOutputs {}

extension FakeBlueZOutputs {
    func events(_ directory: String, _ name: String = "out") -> [[String: Any]] {
        text(directory, name).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    func text(_ directory: String, _ name: String) -> String {
        (try? String(contentsOfFile: "\(directory)/\(name)", encoding: .utf8)) ?? ""
    }
}
