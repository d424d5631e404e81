import Foundation
@testable import IntervalEngine
import Platform
import WorkoutValues
import XCTest

/// `$XDG_CONFIG_HOME/workout/athlete`: max_hr and ftp for every run, under `--set`, and a
/// bad line named by file and line.
final class AthleteFileTests: XCTestCase {
    var config = ""

    override func setUpWithError() throws {
        config = NSTemporaryDirectory() + "athlete-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: config + "/workout", withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: config)
    }

    func file(_ text: String?) throws -> AthleteFile {
        let file = AthleteFile(directories: UserDirectories(environment: ["XDG_CONFIG_HOME": config, "HOME": "/nonexistent"]))
        if let text { try text.write(toFile: file.path, atomically: true, encoding: .utf8) }
        return file
    }

    func testTheFileGivesMaxHRAndFTPUnderTheCommandLine() throws {
        let athlete = try file("# mine\nmax_hr = 185\n\n  ftp=250   # since March\nmax_hr = 187\n")
        XCTAssertEqual(athlete.path, config + "/workout/athlete")
        XCTAssertEqual(try athlete.read(), [ParameterSetting(name: "ftp", text: "250"), ParameterSetting(name: "max_hr", text: "187")],
                       "the last line for a name counts")
        let given = [ParameterSetting(name: "ftp", text: "260"), ParameterSetting(name: "rounds", text: "4")]
        let merged = try athlete.settings(under: given)
        XCTAssertEqual(merged.map(\.name), ["max_hr", "ftp", "rounds"])
        XCTAssertEqual(try Athlete(settings: merged), Athlete(maxHeartRate: 187, ftp: 260), "--set wins")
    }

    /// Checked before it is read: a 100 MB file is refused by its size (it was read whole
    /// first, 1.5 GB resident for a 1 GB file), a folder or a FIFO in words.
    func testALargeOrIrregularFileIsRefusedBeforeItIsRead() throws {
        let athlete = try file(nil)
        XCTAssertTrue(FileManager.default.createFile(atPath: athlete.path, contents: nil))
        XCTAssertEqual(truncate(athlete.path, 100 * 1024 * 1024), 0)
        XCTAssertThrowsError(try athlete.read()) { error in
            XCTAssertEqual("\(error)", "\(athlete.path): the file is 100 MiB; the athlete file may be at most 64 KiB")
        }
        try FileManager.default.removeItem(atPath: athlete.path)
        XCTAssertEqual(mkfifo(athlete.path, 0o644), 0)
        XCTAssertThrowsError(try athlete.read()) { error in
            XCTAssertEqual("\(error)", "\(athlete.path): not a regular file (expected the athlete file)")
        }
        try FileManager.default.removeItem(atPath: athlete.path)
        try FileManager.default.createDirectory(atPath: athlete.path, withIntermediateDirectories: false)
        XCTAssertThrowsError(try athlete.read()) { error in
            XCTAssertEqual("\(error)", "\(athlete.path): it is a directory, not the athlete file")
        }
    }

    /// The sensors file, the same way: in words, never Foundation's error domain.
    func testTheSensorsFileIsBoundedToo() throws {
        let sensors = RememberedSensors(directories: UserDirectories(environment: ["XDG_CONFIG_HOME": config, "HOME": "/nonexistent"]))
        XCTAssertEqual(mkfifo(sensors.path, 0o644), 0)
        XCTAssertThrowsError(try sensors.read()) { error in
            XCTAssertEqual("\(error)", "\(sensors.path): not a regular file (expected the sensors file)")
        }
        try FileManager.default.removeItem(atPath: sensors.path)
        XCTAssertTrue(FileManager.default.createFile(atPath: sensors.path, contents: nil))
        XCTAssertEqual(truncate(sensors.path, 1 << 30), 0)
        XCTAssertThrowsError(try sensors.read()) { error in
            XCTAssertEqual("\(error)", "\(sensors.path): the file is 1024 MiB; the sensors file may be at most 64 KiB")
        }
        try FileManager.default.removeItem(atPath: sensors.path)
        try FileManager.default.createDirectory(atPath: sensors.path, withIntermediateDirectories: false)
        XCTAssertThrowsError(try sensors.add("C0:FF:EE:00:00:01")) { error in
            XCTAssertEqual("\(error)", "\(sensors.path): it is a directory, not the sensors file")
        }
    }

    func testNoFileIsNoSettings() throws {
        XCTAssertEqual(try file(nil).settings(under: [ParameterSetting(name: "ftp", text: "200")]),
                       [ParameterSetting(name: "ftp", text: "200")])
    }

    func testABadLineNamesTheFileAndTheLine() throws {
        let cases: [(String, String)] = [
            ("max_hr = 185\nmax-hr 190\n", ":2: expected NAME = VALUE"),
            ("\n\nweight = 70\n", ":3: weight is not a setting here; the file takes ftp, intervals_upload, max_hr, mqtt, mqtt_ca and mqtt_password_file"),
            ("ftp = -5\n", ":1: ftp must be a positive number, got -5"),
            ("ftp = nan\n", ":1: ftp must be a positive number, got nan"),
            ("max_hr = 1e400\n", ":1: max_hr must be a positive number"),
            ("max_hr = \u{1B}[31m\n", ":1: max_hr must be a positive number, got \\27[31m"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try file(text).read(), text) { error in
                let message = (error as? RoutineError)?.message ?? ""
                XCTAssertTrue(message.hasPrefix(config + "/workout/athlete" + expected.prefix(while: { $0 != " " })),
                              "\(text): \(message)")
                XCTAssertTrue(message.contains(expected.drop(while: { $0 != " " }).dropFirst()), "\(text): \(message)")
                XCTAssertFalse(message.unicodeScalars.contains { $0.value == 0x1B }, "escaped: \(message)")
            }
        }
    }
}
