import Foundation
import XCTest

/// `.erg` and `.mrc` trainer courses (GoldenCheetah, TrainerRoad, Wahoo) through `workout
/// import` and `workout export`, as a user runs them. The fixtures are written for the
/// project in the shapes the tools write: GoldenCheetah's `.erg` (LF, `FTP =`, the file's
/// name in `FILE NAME`), TrainerRoad's `.mrc` (CRLF, `[COURSE TEXT]`).
final class CourseFileTests: XCTestCase {
    private func workout(_ arguments: [String], environment: [String: String] = [:]) throws -> WorkoutBinary.Result {
        try WorkoutBinary.run(arguments, environment: environment)
    }

    private func scratch() throws -> URL { try scratchFolder("workout-course") }

    func testAGoldenCheetahErgAndATrainerRoadMrcImportAndRun() throws {
        let dir = try scratch()
        let environment = ["XDG_CONFIG_HOME": dir.path]
        let mrc = interchangeFixtures.appendingPathComponent("threshold-3x10.mrc").path
        let imported = try workout(["import", mrc], environment: environment)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(imported.stderr, "")
        XCTAssertEqual(imported.lines.first, "Created \(dir.path)/workout/programs/threshold-3x10.lua from \(mrc) (an .mrc course): 7 segments, 55:00.")
        let lua = try String(contentsOf: dir.appendingPathComponent("workout/programs/threshold-3x10.lua"), encoding: .utf8)
        XCTAssertTrue(lua.contains("""
              work("10:00", "Ramp up easy", { power = { low = 45, high = 75 }, ramp = true }),
              segment {
                kind = "work",
                duration = "10:00",
                name = "Settle in at threshold",
                info = { power = 100 },
                cues = { [300] = "Halfway" },
              },
              rounds(2, {
                work("5:00", { power = 55 }),
                work("10:00", { power = 100 }),
              }),
              work("5:00", { power = 50 }),
            """), lua)
        let dry = try workout(["run", "threshold-3x10", "--dry-run"], environment: environment)
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertTrue(dry.stdout.contains("print: ramp 45-75% FTP"), dry.stdout)
        XCTAssertTrue(dry.stdout.contains("Halfway"), dry.stdout)

        let erg = interchangeFixtures.appendingPathComponent("sweet-spot-gc.erg").path
        let ergImported = try workout(["import", erg, "--stdout"], environment: environment)
        XCTAssertEqual(ergImported.status, 0, ergImported.stderr)
        XCTAssertTrue(ergImported.stdout.contains("""
              name = "sweet-spot-gc",
              description = "Sweet spot 2x20 (exported from GoldenCheetah)",

              work("5:00", { watts = 100 }),
              work("5:00", { watts = 150 }),
              work("20:00", { watts = 220 }),
            """), ergImported.stdout)
    }

    /// Export, import and export again give the same file, for every bundled routine that
    /// is not open-ended and a routine with targets, in both units.
    func testExportImportExportIsIdentical() throws {
        let dir = try scratch()
        let environment = ["XDG_CONFIG_HOME": dir.path]
        let routine = dir.appendingPathComponent("over-unders.lua")
        try FileManager.default.copyItem(at: FITWorkoutTests.targetsRoutine, to: routine)
        let programs = try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("programs").path)
            .filter { $0.hasSuffix(".lua") && !["ladder.lua", "best-round.lua"].contains($0) }.map { String($0.dropLast(4)) }.sorted()
        for format in ["erg", "mrc"] {
            for source in programs + [routine.path] {
                let name = (source as NSString).lastPathComponent.replacingOccurrences(of: ".lua", with: "")
                let first = dir.appendingPathComponent("\(name).\(format)")
                let exported = try workout(["export", source, "--format", format, "--ftp", "250", "-o", first.path], environment: environment)
                XCTAssertEqual(exported.status, 0, "\(source) \(format): \(exported.stderr)")
                let imported = try workout(["import", first.path, "--name", "\(name)-\(format)"], environment: environment)
                XCTAssertEqual(imported.status, 0, "\(source) \(format): \(imported.stderr)")
                XCTAssertEqual(imported.stderr, "", "\(source) \(format)")
                let second = dir.appendingPathComponent("\(name)-again.\(format)")
                let again = try workout(["export", "\(name)-\(format)", "--format", format, "--ftp", "250", "-o", second.path],
                                        environment: environment)
                XCTAssertEqual(again.status, 0, "\(source) \(format): \(again.stderr)")
                XCTAssertEqual(try String(contentsOf: second, encoding: .utf8), try String(contentsOf: first, encoding: .utf8),
                               "\(source) \(format)")
            }
        }
        // Watts in an .erg, percent in an .mrc: the other unit through --ftp.
        let erg = try String(contentsOf: dir.appendingPathComponent("over-unders.erg"), encoding: .utf8)
        XCTAssertTrue(erg.hasPrefix("[COURSE HEADER]\nVERSION = 2\nUNITS = ENGLISH\nFILE NAME = Over-unders\nFTP = 250\nMINUTES WATTS\n"
                                    + "[END COURSE HEADER]\n[COURSE DATA]\n0\t143.75\n10\t143.75\n10\t280\n13\t280\n"), erg)
        XCTAssertTrue(erg.contains("[COURSE TEXT]\n0\tWarmup: Spin up\t10\n600\tOver\t10\n780\tRest: Easy\t10\n"), erg)
        let mrc = try String(contentsOf: dir.appendingPathComponent("over-unders.mrc"), encoding: .utf8)
        XCTAssertTrue(mrc.contains("MINUTES PERCENT\n[END COURSE HEADER]\n[COURSE DATA]\n0\t57.5\n10\t57.5\n10\t112\n13\t112\n"), mrc)
    }

    func testWhatACourseCannotHoldIsNamedAndAMissingFTPRefused() throws {
        let dir = try scratch()
        let routine = dir.appendingPathComponent("over-unders.lua")
        try FileManager.default.copyItem(at: FITWorkoutTests.targetsRoutine, to: routine)
        let refused = try workout(["export", routine.path, "--format", "erg"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stdout, "")
        XCTAssertEqual(refused.stderr, "workout: over-unders.lua: 1 step has power in percent of FTP, and a .erg file holds watts: "
                       + "give --ftp WATTS to convert, or export --format mrc\n")
        let written = try workout(["export", routine.path, "--format", "mrc", "--ftp", "250"])
        XCTAssertEqual(written.status, 0, written.stderr)
        for lost in ["cadence (4 steps)", "hr (3 steps)", "bpm (1 step)", "ranges without a ramp (written as their middle) (1 step)",
                     "steps without a power target (written at 0) (6 steps)", "repeats (written out step by step; import finds them again)",
                     "info fields that are not targets: notes"] {
            XCTAssertTrue(written.stderr.contains("workout: warning: over-unders.lua: not in an .mrc course: \(lost)\n"), "\(lost):\n\(written.stderr)")
        }
        let badFTP = try workout(["export", "tabata", "--format", "zwo", "--ftp", "250"])
        XCTAssertEqual(badFTP.status, 64)
        XCTAssertTrue(badFTP.stderr.contains("--ftp is for --format erg and mrc"), badFTP.stderr)
    }

    func testBadCoursesAreRefusedNamingFileAndLine() throws {
        let dir = try scratch()
        let environment = ["XDG_CONFIG_HOME": dir.path]
        let cases: [(String, String, String)] = [
            ("no-units.erg", "[COURSE HEADER]\nVERSION = 2\n[END COURSE HEADER]\n[COURSE DATA]\n0\t100\n",
             "no-units.erg:5: expected MINUTES WATTS or MINUTES PERCENT in [COURSE HEADER] before the data"),
            ("backwards.mrc", "[COURSE HEADER]\nMINUTES PERCENT\n[END COURSE HEADER]\n[COURSE DATA]\n0\t50\n10\t50\n5\t60\n",
             "backwards.mrc:7: 5 minutes is before the point on line 6 (10): expected times in order"),
            ("hex.erg", "[COURSE HEADER]\nMINUTES WATTS\n[END COURSE HEADER]\n[COURSE DATA]\n0\t0x10\n",
             "hex.erg:5: expected watts (a plain decimal), got \"0x10\""),
            ("one-column.erg", "[COURSE HEADER]\nMINUTES WATTS\n[END COURSE HEADER]\n[COURSE DATA]\n0\n",
             "one-column.erg:5: expected minutes and power, such as \"5.5 200\", got \"0\""),
            ("huge.mrc", "[COURSE HEADER]\nMINUTES PERCENT\n[END COURSE HEADER]\n[COURSE DATA]\n0\t100000\n",
             "huge.mrc:5: 100000: expected 0 to 1000 (percent of FTP)"),
            ("empty.erg", "[COURSE HEADER]\nMINUTES WATTS\n[END COURSE HEADER]\n[COURSE DATA]\n0\t100\n",
             "empty.erg:5: [COURSE DATA] holds no steps (two points with time between them)"),
        ]
        for (name, text, message) in cases {
            let file = dir.appendingPathComponent(name)
            try text.write(to: file, atomically: false, encoding: .utf8)
            let result = try workout(["import", file.path], environment: environment)
            XCTAssertEqual(result.status, 1, name)
            XCTAssertEqual(result.stdout, "", name)
            XCTAssertEqual(result.stderr, "workout: \(message)\n", name)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("workout/programs").path))
    }
}
