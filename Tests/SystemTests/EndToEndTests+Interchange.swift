import Foundation
import XCTest
@testable import IntervalEngine

/// `workout import` and `workout export` as a user runs them.
extension EndToEndTests {
    func testImportWritesARoutineThatRunsAndNeverOverwrites() throws {
        let config = try temporaryConfig()
        let environment = ["XDG_CONFIG_HOME": config.path]
        let target = config.appendingPathComponent("workout/programs/over-unders.lua")
        let source = interchangeFixtures.appendingPathComponent("over-unders.zwo").path
        let result = try workout(["import", source], environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines.first, "Created \(target.path) from \(source) (a Zwift workout): 20 segments, 57:20.")
        XCTAssertEqual(result.stderr, "workout: warning: over-unders.zwo:14: <ftpOverride> is not part of a workout file workout knows; skipped\n")
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8),
                       try String(contentsOf: interchangeFixtures.appendingPathComponent("over-unders.lua"), encoding: .utf8))

        let check = try workout(["check", "over-unders"], environment: environment)
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertTrue(check.stderr.hasPrefix("workout: warning: over-unders.lua:") && check.stderr.contains("(percent of FTP) but no FTP is set"),
                      "a ZWO's power fractions need an FTP: \(check.stderr)")
        let dry = try workout(["run", "over-unders", "--dry-run"], environment: environment)
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertTrue(dry.stdout.contains("print: ramp 25-75% FTP · 85 rpm"), dry.stdout)
        XCTAssertTrue(dry.stdout.contains("print: 105% FTP · 95 rpm"), dry.stdout)

        try "-- mine\nreturn workout { name = \"Mine\", work(1) }\n".write(to: target, atomically: false, encoding: .utf8)
        let again = try workout(["import", source], environment: environment)
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.stderr.hasSuffix("workout: \(target.path) already exists; edit it, or choose another name (workout new NAME) (or import with --name NAME)\n"), again.stderr)
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "-- mine\nreturn workout { name = \"Mine\", work(1) }\n")

        let named = try workout(["import", source, "--name", "thursday"], environment: environment)
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: config.appendingPathComponent("workout/programs/thursday.lua").path))
    }

    func testImportToStandardOutputAndFormats() throws {
        let config = try temporaryConfig()
        let environment = ["XDG_CONFIG_HOME": config.path]
        let text = interchangeFixtures.appendingPathComponent("sweet-spot.txt")
        let printed = try workout(["import", text.path, "--stdout"], environment: environment)
        XCTAssertEqual(printed.status, 0, printed.stderr)
        XCTAssertEqual(printed.stdout, try String(contentsOf: interchangeFixtures.appendingPathComponent("sweet-spot.lua"), encoding: .utf8))
        XCTAssertFalse(FileManager.default.fileExists(atPath: config.appendingPathComponent("workout/programs").path))

        // Pasted text under another extension needs --format.
        let pasted = config.appendingPathComponent("pasted.workout")
        try FileManager.default.copyItem(at: text, to: pasted)
        let unknown = try workout(["import", pasted.path], environment: environment)
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("cannot tell the format of '\(pasted.path)' from its extension; add --format zwo, icu, fit, erg or mrc"), unknown.stderr)
        let given = try workout(["import", pasted.path, "--format", "icu", "--name", "pasted"], environment: environment)
        XCTAssertEqual(given.status, 0, given.stderr)
        let wrong = try workout(["import", pasted.path, "--format", "zwo", "--stdout"], environment: environment)
        XCTAssertEqual(wrong.status, 1)
        XCTAssertEqual(wrong.stderr, "workout: pasted.workout:1: expected an XML element such as <workout_file>, got text\n")
    }

    func testBadInputWritesNothing() throws {
        let config = try temporaryConfig()
        let environment = ["XDG_CONFIG_HOME": config.path]
        let bad = config.appendingPathComponent("broken.zwo")
        try "<workout_file>\n  <workout>\n    <SteadyState Duration=\"60\" Power=\"0.8\">\n  </workout>\n".write(to: bad, atomically: false, encoding: .utf8)
        let result = try workout(["import", bad.path], environment: environment)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr, "workout: broken.zwo:4: expected </SteadyState> (opened on line 3), got </workout>\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: config.appendingPathComponent("workout/programs/broken.lua").path))

        let missing = try workout(["import", config.appendingPathComponent("nothing.zwo").path], environment: environment)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.hasSuffix("nothing.zwo: cannot read the file\n"), missing.stderr)

        let badName = try workout(["import", bad.path, "--name", "../up"], environment: environment)
        XCTAssertEqual(badName.status, 64)
        XCTAssertTrue(badName.stderr.contains("NAME may hold letters, digits, - and _ (got '../up')"), badName.stderr)
    }

    func testExportWritesTheTimelineAndSaysWhatItLeftOut() throws {
        let icu = try workout(["export", "tabata", "--format", "icu", "--set", "sets=1"])
        XCTAssertEqual(icu.status, 0, icu.stderr)
        XCTAssertEqual(icu.stdout, """
            Tabata
            1 Tabatas of 8 x 20 s on / 10 s off

            - Prep: Get ready 10s

            Tabata 7x
            - All out 20s
            - Rest 10s

            - All out 20s
            - Cooldown: Walk it off 2m

            """)
        XCTAssertEqual(icu.stderr, """
            workout: warning: tabata.lua: not in intervals.icu text: the hooks on_segment_start, on_finish
            workout: warning: tabata.lua: not in intervals.icu text: info fields that are not targets: tip

            """)
        let zwo = try workout(["export", "tabata", "--format", "zwo", "--set", "sets=1"])
        XCTAssertEqual(zwo.status, 0, zwo.stderr)
        XCTAssertTrue(zwo.stdout.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<workout_file>\n    <name>Tabata</name>"), zwo.stdout)
        XCTAssertEqual(zwo.stdout.components(separatedBy: "<FreeRide ").count - 1, 17)

        let open = try workout(["export", "best-round", "--format", "zwo"])
        XCTAssertEqual(open.status, 1)
        XCTAssertEqual(open.stdout, "")
        XCTAssertEqual(open.stderr, "workout: best-round.lua: an open-ended routine (one with generate) cannot be exported: its segments are known only as it runs\n")

        let noFormat = try workout(["export", "tabata"])
        XCTAssertEqual(noFormat.status, 64)
        XCTAssertTrue(noFormat.stderr.contains("--format"), noFormat.stderr)
    }

    /// A routine exported and imported again runs the same segments.
    func testExportThenImportRunsTheSameWorkout() throws {
        let config = try temporaryConfig()
        let environment = ["XDG_CONFIG_HOME": config.path]
        for format in ["zwo", "icu"] {
            let exported = try workout(["export", "pyramid", "--format", format])
            XCTAssertEqual(exported.status, 0, exported.stderr)
            let file = config.appendingPathComponent("pyramid.\(format == "zwo" ? "zwo" : "txt")")
            try exported.stdout.write(to: file, atomically: false, encoding: .utf8)
            let imported = try workout(["import", file.path, "--name", "pyramid-\(format)"], environment: environment)
            XCTAssertEqual(imported.status, 0, imported.stderr)
            // The segments without their info, which the formats do not carry (export warns).
            let plan = { (routine: String) throws -> [String] in
                try self.workout(["plan", routine], environment: environment).lines
                    .filter { $0.trimmingWhitespace().first?.isNumber == true }
                    .map { $0.components(separatedBy: " — ")[0] }
            }
            XCTAssertEqual(try plan("pyramid-\(format)"), try plan("pyramid"), format)
        }
    }

    /// A Zwift run in distance (as zwo-editor writes it) imports as distance steps at
    /// percents of threshold pace, plans as a runner reads it, and goes out and back the same.
    func testAZwiftDistanceRunRoundTrips() throws {
        let config = try temporaryConfig()
        let environment = ["XDG_CONFIG_HOME": config.path]
        let imported = try workout(["import", interchangeFixtures.appendingPathComponent("track-run.zwo").path], environment: environment)
        XCTAssertEqual([imported.status == 0 ? "imported" : imported.stderr, imported.stderr],
                       ["imported", "workout: warning: track-run.zwo:12: <textevent> is placed by distance, which a timer cannot follow; skipped\n"])
        let plan = try workout(["plan", "track-run"], environment: environment)
        XCTAssertTrue(plan.stdout.contains("Work · round 1/4 — 400 m · 105% pace"), plan.stdout)
        XCTAssertTrue(plan.stdout.contains("Warmup — 1.6 km · ramp 70–85% pace"), plan.stdout)
        let first = try workout(["export", "track-run", "--format", "zwo"], environment: environment)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.contains("<sportType>run</sportType>\n    <durationType>distance</durationType>"), first.stdout)
        XCTAssertTrue(first.stdout.contains(#"<IntervalsT Repeat="4" OnDuration="400" OffDuration="200" OnPower="1.05" OffPower="0.6"/>"#), first.stdout)
        let file = config.appendingPathComponent("again.zwo")
        try first.stdout.write(to: file, atomically: false, encoding: .utf8)
        let again = try workout(["import", file.path], environment: environment)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stderr, "")
        let second = try workout(["export", "again", "--format", "zwo"], environment: environment)
        XCTAssertEqual(second.stdout, first.stdout)
    }

    /// Export writes nothing that import would refuse, and says why.
    func testExportRefusesTargetsImportWouldRefuse() throws {
        let config = try temporaryConfig()
        let routine = config.appendingPathComponent("negative.lua")
        try "return workout { name = \"N\",\n  work(60, { power = -50, cadence = -10 }) }\n".write(to: routine, atomically: false, encoding: .utf8)
        for format in ["zwo", "icu"] {
            let result = try workout(["export", routine.path, "--format", format])
            XCTAssertEqual(result.status, 1, format)
            XCTAssertEqual(result.stdout, "", format)
            XCTAssertEqual(result.stderr, """
                workout: negative.lua:2: info.power = -50: expected 0 to 1000 (percent of FTP); workout import would refuse it, so nothing was exported
                workout: negative.lua:2: info.cadence = -10: expected 0 to 300 (rpm); workout import would refuse it, so nothing was exported

                """, format)
        }
    }

    /// A file past the bound is refused by its size, before it is read; a FIFO or a device
    /// is refused without waiting on it.
    func testImportRefusesAFileTooBigOrNotRegular() throws {
        let config = try temporaryConfig()
        let environment = ["XDG_CONFIG_HOME": config.path]
        let big = config.appendingPathComponent("huge.zwo")
        XCTAssertTrue(FileManager.default.createFile(atPath: big.path, contents: nil))
        XCTAssertEqual(truncate(big.path, 100 * 1024 * 1024), 0, "a sparse 100 MiB file")
        let result = try workout(["import", big.path, "--stdout"], environment: environment)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "workout: \(big.path): the file is 100 MiB; a workout file may be at most 4 MiB\n")

        let fifo = config.appendingPathComponent("pipe.txt")
        XCTAssertEqual(mkfifo(fifo.path, 0o644), 0)
        let piped = try workout(["import", fifo.path, "--stdout"], environment: environment)
        XCTAssertEqual(piped.status, 1)
        XCTAssertEqual(piped.stderr, "workout: \(fifo.path): not a regular file (expected a workout file)\n")
    }
}

/// What export writes, import reads: a file past import's size is refused by export in
/// words; an intervals.icu repeat out of range is refused by import with file and line.
extension EndToEndTests {
    /// 12,000 steps, each named apart (no repeats to find) with notes: a FIT file past
    /// import's 4 MiB, which export wrote with exit 0 and import then refused.
    func testExportRefusesAFileImportWouldRefuseForItsSize() throws {
        let config = try temporaryConfig()
        let routine = config.appendingPathComponent("long.lua")
        try """
            local steps = {}
            for i = 1, 12000 do
              steps[#steps + 1] = work(1 + i % 7, "Step number " .. i, { notes = string.rep("n", 200) .. i })
            end
            return workout { name = "Long", table.unpack(steps) }

            """.write(to: routine, atomically: false, encoding: .utf8)
        let output = config.appendingPathComponent("long.fit")
        let result = try workout(["export", routine.path, "--format", "fit", "-o", output.path])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("more than workout import reads (4 MiB), so nothing was exported"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
    }

    /// `Main set 20000x`, `0x` and `4294967296x` were taken as a name, their steps imported once.
    func testAnIntervalsRepeatOutOfRangeIsRefusedWithFileAndLine() throws {
        let config = try temporaryConfig()
        for count in ["20000", "0", "4294967296"] {
            let file = config.appendingPathComponent("set.txt")
            try "Set\n\nMain set \(count)x\n- 30s 120%\n- 30s 50%\n".write(to: file, atomically: false, encoding: .utf8)
            let result = try workout(["import", file.path, "--stdout"])
            XCTAssertEqual(result.status, 1, count)
            XCTAssertEqual(result.stderr, "workout: set.txt:3: the repeat \(count)x: expected 1 to 10000 times\n", count)
        }
    }
}
