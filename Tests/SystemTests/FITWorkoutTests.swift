import FIT
import Foundation
import XCTest
@testable import IntervalEngine

/// `workout export --format fit` and `workout import FILE.fit`: FIT workout files as a
/// Garmin runs them, read back by Garmin's own FIT SDK for Python (`make fit-decoders`).
final class FITWorkoutTests: XCTestCase {
    private func workout(_ arguments: [String], environment: [String: String] = [:]) throws -> WorkoutBinary.Result {
        try WorkoutBinary.run(arguments, environment: environment)
    }

    private func scratch() throws -> URL { try scratchFolder("workout-fit") }

    /// A routine with rounds, every target FIT holds, one it does not, an open segment, notes and cues.
    static let targetsRoutine = interchangeFixtures.appendingPathComponent("targets.lua")

    // MARK: - Every bundled routine

    /// Every bundled routine but the open-ended ones (refused) written as FIT and read by
    /// Garmin's SDK without errors: a workout file whose steps, unrolled by their repeats,
    /// are the routine's segments — name, duration, intensity, open — as `plan --json` has them.
    func testEveryBundledRoutineIsAFITWorkoutGarminReads() throws {
        let dir = try scratch()
        let programs = try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("programs").path)
            .filter { $0.hasSuffix(".lua") }.map { String($0.dropLast(4)) }.sorted()
        XCTAssertGreaterThan(programs.count, 10)
        var written = 0
        for name in programs {
            let file = dir.appendingPathComponent("\(name).fit")
            let export = try workout(["export", name, "--format", "fit", "-o", file.path])
            let plan = try workout(["plan", name, "--json"])
            let planned = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])
            if planned["open_ended"] as? Bool == true {
                XCTAssertEqual(export.status, 1, name)
                XCTAssertEqual(export.stderr, "workout: \(name).lua: an open-ended routine (one with generate) cannot be exported: "
                               + "its segments are known only as it runs\n")
                XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), name)
                continue
            }
            XCTAssertEqual(export.status, 0, "\(name): \(export.stderr)")
            XCTAssertEqual(export.stdout, "", name)
            written += 1
            let decoded = try ActivityDecoders.decodeFIT(file.path)
            XCTAssertEqual(decoded.garminErrors, [], name)
            XCTAssertTrue(decoded.integrity, name)
            XCTAssertEqual(decoded.secondErrors, [], name)
            XCTAssertEqual(decoded.garmin["file_id_mesgs"]?.first?["type"] as? String, "workout", name)
            let header = try XCTUnwrap(decoded.garmin["workout_mesgs"]?.first, name)
            XCTAssertEqual(header["wkt_name"] as? String, planned["name"] as? String, name)
            let steps = decoded.garmin["workout_step_mesgs"] ?? []
            XCTAssertEqual(header["num_valid_steps"] as? Int, steps.count, name)
            XCTAssertEqual(steps.map { $0["message_index"] as? Int }, Array(0..<steps.count), name)

            let segments = try XCTUnwrap(planned["segments"] as? [[String: Any]])
            // The JSON plan has no open flag: the table says `open ~0:40`.
            let open = Set(try workout(["plan", name]).lines.compactMap { line -> Int? in
                let columns = line.split(separator: " ")
                return columns.count > 3 && columns[3] == "open" ? Int(columns[0]) : nil
            })
            let expected = segments.map { segment -> String in
                let kind = segment["kind"] as? String ?? ""
                let length = open.contains(segment["index"] as? Int ?? 0) ? "open"
                    : "\(Int(((segment["duration"] as? Double ?? 0) * 1000).rounded())) ms"
                return "\(segment["name"] as? String ?? "") \(length) \(Self.intensity(kind))"
            }
            XCTAssertEqual(Self.unrolled(steps), expected, name)
        }
        XCTAssertGreaterThanOrEqual(written, 12)
    }

    /// FIT's intensity for a kind, as the profile names it.
    static func intensity(_ kind: String) -> String {
        switch kind {
        case "rest", "prep": "rest"
        case "warmup": "warmup"
        case "cooldown": "cooldown"
        case "recovery": "recovery"
        default: "active"
        }
    }

    /// The steps as the device runs them, each repeat step sending it back to the step
    /// its `duration_step` names, `repeat_steps` times in all.
    static func unrolled(_ steps: [[String: Any]]) -> [String] {
        var run: [String] = []
        var done: [Int: Int] = [:]
        var index = 0
        var guardCount = 0
        while index < steps.count, guardCount < 100_000 {
            guardCount += 1
            let step = steps[index]
            if step["duration_type"] as? String == "repeat_until_steps_cmplt" {
                let times = step["repeat_steps"] as? Int ?? 0
                done[index, default: 1] += 1
                if done[index]! <= times {
                    index = step["duration_step"] as? Int ?? index + 1
                } else {
                    done[index] = nil
                    index += 1
                }
                continue
            }
            let length = step["duration_type"] as? String == "open" ? "open" : "\(step["duration_value"] as? Int ?? -1) ms"
            run.append("\(step["wkt_step_name"] as? String ?? "") \(length) \(step["intensity"] as? String ?? "")")
            index += 1
        }
        return run
    }

    // MARK: - Field by field

    func testStepsRepeatsDurationsAndTargetsFieldByField() throws {
        let dir = try scratch()
        let routine = dir.appendingPathComponent("over-unders.lua")
        try FileManager.default.copyItem(at: Self.targetsRoutine, to: routine)
        let file = dir.appendingPathComponent("over-unders.fit")
        let export = try workout(["export", routine.path, "--format", "fit", "-o", file.path])
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertEqual(export.stderr, """
            workout: warning: over-unders.lua: not in a FIT workout: the caps, tallies and scores of 1 open segment (each is a step the lap button ends)
            workout: warning: over-unders.lua: not in a FIT workout: pace (1 step)
            workout: warning: over-unders.lua: not in a FIT workout: the times of cues (a step's notes show from its start) (1 step)

            """)
        let decoded = try ActivityDecoders.decodeFIT(file.path)
        XCTAssertEqual(decoded.garminErrors, [])
        XCTAssertTrue(decoded.integrity)
        XCTAssertEqual(decoded.garmin["file_id_mesgs"]?.first?["manufacturer"] as? String, "development")
        let header = try XCTUnwrap(decoded.garmin["workout_mesgs"]?.first)
        XCTAssertEqual(header["sport"] as? String, "cycling")
        XCTAssertEqual(header["num_valid_steps"] as? Int, 7)
        XCTAssertEqual(header["wkt_name"] as? String, "Over-unders")
        let steps = try XCTUnwrap(decoded.garmin["workout_step_mesgs"])
        XCTAssertEqual(steps.count, 7)
        func fields(_ step: [String: Any], _ names: [String]) -> String {
            names.map { name in "\(name)=\(step[name].map { "\($0)" } ?? "nil")" }.joined(separator: " ")
        }
        let durations = ["wkt_step_name", "duration_type", "duration_value", "intensity"]
        XCTAssertEqual(steps.map { fields($0, durations) }, [
            "wkt_step_name=Spin up duration_type=time duration_value=600000 intensity=warmup",
            "wkt_step_name=Over duration_type=time duration_value=180000 intensity=active",
            "wkt_step_name=Easy duration_type=time duration_value=90000 intensity=rest",
            "wkt_step_name=Main set duration_type=repeat_until_steps_cmplt duration_value=1 intensity=nil",
            "wkt_step_name=Sprint duration_type=open duration_value=nil intensity=active",
            "wkt_step_name=Breathe duration_type=time duration_value=120000 intensity=recovery",
            "wkt_step_name=Cool down duration_type=time duration_value=300000 intensity=cooldown",
        ])
        XCTAssertEqual(steps[3]["duration_step"] as? Int, 1)
        XCTAssertEqual(steps[3]["repeat_steps"] as? Int, 3)
        let targets = ["target_type", "target_value", "custom_target_value_low", "custom_target_value_high",
                       "secondary_target_type", "secondary_custom_target_value_low", "secondary_custom_target_value_high", "notes"]
        XCTAssertEqual(steps.map { fields($0, targets) }, [
            // 50-65 % of FTP, cadence 90 as the second target.
            "target_type=power target_value=0 custom_target_value_low=50 custom_target_value_high=65 "
                + "secondary_target_type=cadence secondary_custom_target_value_low=90 secondary_custom_target_value_high=90 notes=nil",
            // 280 W: watts + 1000.
            "target_type=power target_value=0 custom_target_value_low=1280 custom_target_value_high=1280 "
                + "secondary_target_type=cadence secondary_custom_target_value_low=95 secondary_custom_target_value_high=100 notes=nil",
            "target_type=heart_rate target_value=0 custom_target_value_low=60 custom_target_value_high=70 "
                + "secondary_target_type=nil secondary_custom_target_value_low=nil secondary_custom_target_value_high=nil notes=Spin easy, drink",
            "target_type=nil target_value=3 custom_target_value_low=nil custom_target_value_high=nil "
                + "secondary_target_type=nil secondary_custom_target_value_low=nil secondary_custom_target_value_high=nil notes=nil",
            // 170-185 bpm: bpm + 100.
            "target_type=heart_rate target_value=0 custom_target_value_low=270 custom_target_value_high=285 "
                + "secondary_target_type=nil secondary_custom_target_value_low=nil secondary_custom_target_value_high=nil notes=nil",
            "target_type=heart_rate target_value=2 custom_target_value_low=nil custom_target_value_high=nil "
                + "secondary_target_type=nil secondary_custom_target_value_low=nil secondary_custom_target_value_high=nil notes=Slow down · Halfway",
            "target_type=power target_value=1 custom_target_value_low=nil custom_target_value_high=nil "
                + "secondary_target_type=nil secondary_custom_target_value_low=nil secondary_custom_target_value_high=nil notes=nil",
        ])
        // The profile's names for what the numbers mean.
        XCTAssertEqual(steps[1]["custom_target_power_low"] as? Int, 1280)
        XCTAssertEqual(steps[2]["custom_target_heart_rate_high"] as? Int, 70)
        XCTAssertEqual(steps[5]["target_hr_zone"] as? Int, 2)
        XCTAssertEqual(steps[6]["target_power_zone"] as? Int, 1)
    }

    /// A runner's intervals.icu text imported, then exported as FIT: Garmin's SDK reads its
    /// distance steps (centimetres) and its pace as a speed target (mm/s), a running workout.
    func testARunnersIntervalsTextBecomesAFITWorkoutWithDistancesAndSpeeds() throws {
        let dir = try scratch()
        let text = dir.appendingPathComponent("track.txt")
        try FileManager.default.copyItem(at: interchangeFixtures.appendingPathComponent("track.txt"), to: text)
        let routine = dir.appendingPathComponent("track.lua")
        let imported = try workout(["import", text.path, "--stdout"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        try imported.stdout.write(to: routine, atomically: false, encoding: .utf8)
        let file = dir.appendingPathComponent("track.fit")
        let export = try workout(["export", routine.path, "--format", "fit", "-o", file.path])
        XCTAssertEqual(export.status, 0, export.stderr)
        let decoded = try ActivityDecoders.decodeFIT(file.path)
        XCTAssertEqual(decoded.garminErrors, [])
        XCTAssertEqual(decoded.garmin["workout_mesgs"]?.first?["sport"] as? String, "running")
        let steps = try XCTUnwrap(decoded.garmin["workout_step_mesgs"])
        func fields(_ step: [String: Any]) -> String {
            ["wkt_step_name", "duration_type", "duration_distance", "target_type", "custom_target_speed_low",
             "custom_target_speed_high"].map { "\($0)=\(step[$0].map { "\($0)" } ?? "nil")" }.joined(separator: " ")
        }
        XCTAssertEqual(steps.map(fields), [
            "wkt_step_name=Warmup duration_type=time duration_distance=nil target_type=open custom_target_speed_low=nil custom_target_speed_high=nil",
            "wkt_step_name=Work duration_type=distance duration_distance=400.0 target_type=speed custom_target_speed_low=4.167 custom_target_speed_high=4.167",
            "wkt_step_name=Work duration_type=time duration_distance=nil target_type=open custom_target_speed_low=nil custom_target_speed_high=nil",
            "wkt_step_name=Main set duration_type=repeat_until_steps_cmplt duration_distance=nil target_type=nil custom_target_speed_low=nil custom_target_speed_high=nil",
            "wkt_step_name=Work duration_type=distance duration_distance=1000.0 target_type=open custom_target_speed_low=nil custom_target_speed_high=nil",
            "wkt_step_name=Cooldown duration_type=distance duration_distance=3218.69 target_type=open custom_target_speed_low=nil custom_target_speed_high=nil",
        ])
        // Imported again, the distances and the pace come back.
        let back = try workout(["import", file.path, "--stdout"])
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertTrue(back.stdout.contains(#"segment { kind = "work", distance = 400, info = { pace = "4:00/km" } }"#), back.stdout)
        XCTAssertTrue(back.stdout.contains(#"segment { kind = "cooldown", distance = 3218.69 }"#), back.stdout)
    }

    // MARK: - Import

    /// A FIT workout imports as a routine with its repeats as `rounds` and its targets in
    /// `info`; written again it is the same file, byte for byte.
    func testExportImportExportIsIdentical() throws {
        let dir = try scratch()
        let environment = ["XDG_CONFIG_HOME": dir.path]
        let routine = dir.appendingPathComponent("over-unders.lua")
        try FileManager.default.copyItem(at: Self.targetsRoutine, to: routine)
        for source in [routine.path, "tabata", "fran", "hold-zone2", "pyramid", "hiit", "couch-to-5k"] {
            let name = (source as NSString).lastPathComponent.replacingOccurrences(of: ".lua", with: "")
            let first = dir.appendingPathComponent("\(name).fit")
            let exported = try workout(["export", source, "--format", "fit", "-o", first.path], environment: environment)
            XCTAssertEqual(exported.status, 0, "\(source): \(exported.stderr)")
            let imported = try workout(["import", first.path, "--name", "\(name)-again"], environment: environment)
            XCTAssertEqual(imported.status, 0, "\(source): \(imported.stderr)")
            XCTAssertEqual(imported.stderr, "", source)
            let second = dir.appendingPathComponent("\(name)-again.fit")
            let again = try workout(["export", "\(name)-again", "--format", "fit", "-o", second.path], environment: environment)
            XCTAssertEqual(again.status, 0, "\(source): \(again.stderr)")
            XCTAssertEqual(try Data(contentsOf: second), try Data(contentsOf: first), source)
        }
        let lua = try String(contentsOf: dir.appendingPathComponent("workout/programs/over-unders-again.lua"), encoding: .utf8)
        XCTAssertTrue(lua.contains("""
              rounds(3, {
                work("3:00", "Over", { watts = 280, cadence = { low = 95, high = 100 } }),
                rest("1:30", "Easy", { hr = { low = 60, high = 70 }, notes = "Spin easy, drink" }),
              }, { name = "Main set" }),
              segment {
                kind = "work",
                open = true,
                name = "Sprint",
                info = { bpm = { low = 170, high = 185 } },
              },
              segment {
                kind = "recovery",
                duration = "2:00",
                name = "Breathe",
                info = { hr_zone = "Z2", notes = "Slow down · Halfway" },
              },
            """), lua)
        let dry = try workout(["run", "over-unders-again", "--dry-run"], environment: environment)
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertTrue(dry.stdout.contains("print: 280 W · 95-100 rpm"), dry.stdout)
        XCTAssertTrue(dry.stdout.contains("print: 170-185 bpm"), dry.stdout)
    }

    /// An activity file, a damaged one and a cut one are refused, naming the file; nothing is written.
    func testImportRefusesActivityDamagedAndTruncatedFiles() throws {
        let dir = try scratch()
        let environment = ["XDG_CONFIG_HOME": dir.path]
        let good = dir.appendingPathComponent("tabata.fit")
        XCTAssertEqual(try workout(["export", "tabata", "--format", "fit", "-o", good.path]).status, 0)
        let bytes = [UInt8](try Data(contentsOf: good))

        var activity = bytes
        // file_id's type: the first byte of the first data message (14-byte header, an 18-byte definition, its header byte).
        XCTAssertEqual(activity[33], 5)
        activity[33] = 4
        let end = activity.count - 2
        let crc = FITEncoder.crc(activity[0..<end])
        activity[end] = UInt8(crc & 0xFF)
        activity[end + 1] = UInt8(crc >> 8)
        var damaged = bytes
        damaged[bytes.count / 2] ^= 0x55
        let cases: [(String, [UInt8], String)] = [
            ("activity.fit", activity, "activity.fit: this FIT file is an activity (a recorded session), not a workout (type 5); workout import reads workout files"),
            ("damaged.fit", damaged, "damaged.fit: the FIT file is damaged: its CRC does not match its contents"),
            ("cut.fit", Array(bytes.prefix(bytes.count - 40)), "cut.fit: the FIT file is cut short: its header promises \(bytes.count - 16) bytes of data, it holds \(bytes.count - 56)"),
            ("text.fit", Array("not a FIT file at all\n".utf8), "text.fit: not a FIT file (no FIT header)"),
        ]
        for (name, contents, message) in cases {
            let file = dir.appendingPathComponent(name)
            try Data(contents).write(to: file)
            let result = try workout(["import", file.path], environment: environment)
            XCTAssertEqual(result.status, 1, name)
            XCTAssertEqual(result.stdout, "", name)
            XCTAssertEqual(result.stderr, "workout: \(message)\n", name)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("workout/programs").path))
    }

    /// A FIT file never goes to a terminal; to a pipe or a file it does.
    func testBinaryIsNeverWrittenToATerminal() throws {
        let dir = try scratch()
        let log = dir.appendingPathComponent("typescript")
        let command = "'\(WorkoutBinary.binary)' export tabata --format fit; echo status=$?"
        let result = try spawn("/usr/bin/script", ["-qec", command, log.path]).output
        XCTAssertTrue(result.contains("workout: a FIT file is binary: give -o FILE, or send standard output to a file"), result)
        XCTAssertTrue(result.contains("status=1"), result)
        XCTAssertFalse(result.contains(".FIT"), result)

        let piped = try workout(["export", "tabata", "--format", "fit"])
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertTrue(piped.stdout.contains(".FIT"), piped.stdout)
    }
}
