import Foundation
import XCTest
@testable import History
@testable import IntervalEngine

/// Nothing written is lost unseen: a command that writes a file or standard output on a
/// full disk says `workout: FILE: No space left on device`, leaves no partial file, and
/// exits non-zero; `run --export-fit` warns once and keeps the history line. A real full
/// disk (`SmallDisk`) and the kernel's `/dev/full` (a device, written into, never replaced).
final class WriteFailureTests: XCTestCase {
    /// A history of one session, outside the disk that fills.
    private func history() throws -> URL {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("workout-writes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data.appendingPathComponent("workout"), withIntermediateDirectories: true)
        let line = #"{"program":"Ride","file":"/r.lua","sha256":"","started":"2026-11-21T07:00:00Z","ended":"2026-11-21T07:00:03Z","completed":true,"elapsed":3,"segments_done":1,"segments":1,"work_seconds":3,"laps":[{"index":1,"name":"Hard","kind":"work","start":0,"elapsed":3,"timer":3}]}"#
        try (line + "\n").write(to: data.appendingPathComponent("workout/history.jsonl"), atomically: false, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(at: data) }
        return data
    }

    func testExportingToAFullDiskSaysSoAndLeavesNoFile() throws {
        let data = try history()
        let disk = try SmallDisk(bytes: 64 * 1024)
        disk.fill()
        for (format, session) in [("fit", ["last"]), ("tcx", ["last"]), ("csv", []), ("json", [])] {
            let path = disk.directory.appendingPathComponent("ride.\(format)").path
            let result = try WorkoutBinary.run(["history", "export"] + session + ["--format", format, "-o", path],
                                               environment: ["XDG_DATA_HOME": data.path])
            XCTAssertEqual(result.status, 1, format)
            XCTAssertEqual(result.stderr, "workout: \(path): No space left on device\n", format)
            XCTAssertEqual(result.stdout, "", "no Wrote line")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: disk.directory.path), ["filler"],
                           "no partial or temporary file is left")
        }
    }

    /// `-o` naming a device is written into: as root, a rename over it would have put a
    /// plain file where the device was, and said `Wrote`.
    func testExportingToADeviceWritesIntoItAndNeverReplacesIt() throws {
        let data = try history()
        let disk = try SmallDisk(bytes: 64 * 1024)
        let full = disk.directory.appendingPathComponent("full").path
        XCTAssertEqual(mknod(full, S_IFCHR | 0o666, dev_t(1 << 8 | 7)), 0, "a /dev/full of the test's own")
        let result = try WorkoutBinary.run(["history", "export", "last", "--format", "tcx", "-o", full],
                                           environment: ["XDG_DATA_HOME": data.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "workout: \(full): No space left on device\n")
        var info = stat()
        XCTAssertEqual(stat(full, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFCHR, "still the device")
        // A /dev/null of the test's own too: never the system's, which a binary without
        // this fix (run as root) would replace with a plain file.
        let null = disk.directory.appendingPathComponent("null").path
        XCTAssertEqual(mknod(null, S_IFCHR | 0o666, dev_t(1 << 8 | 3)), 0)
        let written = try WorkoutBinary.run(["history", "export", "last", "--format", "tcx", "-o", null],
                                            environment: ["XDG_DATA_HOME": data.path])
        XCTAssertEqual(written.status, 0, written.stderr)
        XCTAssertEqual(stat(null, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFCHR)
    }

    /// Standard output on a full device: every command that prints says so and exits 1.
    func testStandardOutputOnAFullDeviceIsAnError() throws {
        let data = try history()
        let routine = fixtures.appendingPathComponent("e2e.lua").path
        for arguments in [["history", "export"], ["history", "export", "last", "--format", "tcx", "-o", "-"],
                          ["plan", routine], ["export", routine, "--format", "zwo"], ["history"]] {
            let result = try WorkoutBinary.run(["-c", #"exec "$0" "$@" > /dev/full"#, WorkoutBinary.binary] + arguments,
                                               environment: ["XDG_DATA_HOME": data.path], executable: "/bin/sh")
            XCTAssertEqual(result.status, 1, "\(arguments)")
            XCTAssertTrue(result.stderr.hasSuffix("workout: cannot write to standard output: No space left on device\n"),
                          "\(arguments): \(result.stderr)")
        }
    }

    func testExportFITOnAFullDiskWarnsOnceAndKeepsTheHistoryLine() throws {
        let data = try history()
        let disk = try SmallDisk(bytes: 64 * 1024)
        let folder = disk.directory.appendingPathComponent("sync")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        disk.fill()
        let routine = data.appendingPathComponent("r.lua")
        try #"return workout { name = "Short", countdown = 0, work(2, "Go") }"#.write(to: routine, atomically: false, encoding: .utf8)
        let run = try WorkoutBinary.run(["run", routine.path, "--speed", "100", "--export-fit", folder.path],
                                        environment: ["XDG_DATA_HOME": data.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains("FIT") }
        XCTAssertEqual(warnings.count, 1, run.stderr)
        XCTAssertTrue(warnings.first?.hasPrefix("workout: the FIT file was not written: \(folder.path)/") == true, run.stderr)
        XCTAssertTrue(warnings.first?.hasSuffix(": No space left on device") == true, run.stderr)
        XCTAssertFalse(run.stdout.contains("Wrote"), run.stdout)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
        let entries = try HistoryFile(path: data.appendingPathComponent("workout/history.jsonl").path).read().entries
        XCTAssertEqual(entries.map(\.program), ["Ride", "Short"], "the session is recorded")
    }

    /// `workout new` on a full disk: the routine it could not fill is removed, not left empty.
    func testNewOnAFullDiskLeavesNoEmptyRoutine() throws {
        let disk = try SmallDisk(bytes: 64 * 1024)
        let programs = disk.directory.appendingPathComponent("workout/programs")
        try FileManager.default.createDirectory(at: programs, withIntermediateDirectories: true)
        disk.fill()
        let result = try WorkoutBinary.run(["new", "intervals"], environment: ["XDG_CONFIG_HOME": disk.directory.path])
        XCTAssertEqual(result.status, 1, result.stdout)
        XCTAssertEqual(result.stderr, "workout: cannot write \(programs.path)/intervals.lua: No space left on device\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: programs.path), [])
    }

    /// The sensors file on a full disk: `sensors add` says so and keeps the old file.
    func testSensorsAddOnAFullDiskKeepsTheFile() throws {
        let disk = try SmallDisk(bytes: 64 * 1024)
        let file = disk.directory.appendingPathComponent("workout/sensors")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "C0:FF:EE:00:00:01 Strap\n".write(to: file, atomically: false, encoding: .utf8)
        disk.fill()
        let result = try WorkoutBinary.run(["sensors", "add", "C0:FF:EE:00:00:02"], environment: ["XDG_CONFIG_HOME": disk.directory.path])
        XCTAssertEqual(result.status, 1, result.stdout)
        XCTAssertEqual(result.stderr, "workout: \(file.path): No space left on device\n")
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "C0:FF:EE:00:00:01 Strap\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path), ["sensors"])
    }
}
