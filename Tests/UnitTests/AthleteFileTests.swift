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
        if let text { try text.write(toFile: file.path, atomically: false, encoding: .utf8) }
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
            ("\n\nweight = 70\n", ":3: weight is not a setting here; the file takes foot_pod_factor, ftp, intervals_upload, max_hr, max_speed, mqtt, mqtt_ca, mqtt_password_file and threshold_pace"),
            ("ftp = -5\n", ":1: ftp must be a positive number, got -5"),
            ("ftp = nan\n", ":1: ftp must be a positive number, got nan"),
            ("max_hr = 1e400\n", ":1: max_hr must be a positive number"),
            ("max_hr = \u{1B}[31m\n", ":1: max_hr must be a positive number, got \\27[31m"),
            ("threshold_pace = 270\n", ":1: threshold_pace must be a pace such as 4:00/km, 6:26/mi or 1:55/500m, got 270"),
            ("foot_pod_factor = 3\n", ":1: foot_pod_factor must be a factor from 0.5 to 2, got 3"),
            ("max_speed = 60\n", ":1: max_speed must be a speed in km/h above 0, at most 40, got 60"),
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

    func testARunnersSettings() throws {
        let settings = try file("threshold_pace = 4:30/km\nfoot_pod_factor = 1.02\nmax_speed = 16\n").read()
        let athlete = try Athlete(settings: settings)
        XCTAssertEqual(athlete.thresholdPace, 270)
        XCTAssertEqual(athlete.footPodFactor, 1.02)
        XCTAssertEqual(athlete.maxSpeed, 16)
        XCTAssertEqual(try Athlete(settings: [ParameterSetting(name: "threshold_pace", text: "1:45/500m")]).thresholdPace, 210)
        XCTAssertThrowsError(try Athlete(settings: [ParameterSetting(name: "threshold_pace", text: "4:60/km")]))
        XCTAssertEqual(Athlete().footPodFactor, 1)
    }
}
