@testable import IntervalEngine
import Platform
import WorkoutValues
import TestSupport
import XCTest

/// `PlainNumber`, the one reader of every number a person types, and the places that use it:
/// the athlete file, `--set`, parameters, durations, tones' volumes.
final class PlainNumberTests: XCTestCase {
    func testOnlyPlainDecimalsAreNumbers() {
        for (text, value) in [("60", 60.0), ("0.75", 0.75), (".5", 0.5), ("5.", 5), ("007", 7), ("0", 0)] {
            XCTAssertEqual(PlainNumber.decimal(text), value, text)
        }
        let denormal = "0." + String(repeating: "0", count: 320) + "1"
        for text in ["0x10", "1e-320", "1e3", "1E3", "+5", "-5", "inf", "nan", " 5", "5 ", "1_000", "", ".", "1.2.3",
                     "٣", "5e", denormal, String(repeating: "9", count: 400)] {
            XCTAssertNil(PlainNumber.decimal(text), text)
        }
        XCTAssertEqual(PlainNumber.decimal("-2.5", signed: true), -2.5)
        for text in ["--5", "5-", "-", "-0x1"] { XCTAssertNil(PlainNumber.decimal(text, signed: true), text) }
        XCTAssertEqual(PlainNumber.whole("80"), 80)
        XCTAssertEqual(PlainNumber.whole("-3", signed: true), -3)
        for text in ["+5", "-5", "5.0", "0x10", "1e3", "", "99999999999999999999"] { XCTAssertNil(PlainNumber.whole(text), text) }
    }

    func testTheAthleteFileAndSetTakeOnlyPlainNumbers() throws {
        for text in ["0x10", "1e-320", "1e3", "+250", "inf"] {
            XCTAssertThrowsError(try Athlete(settings: [ParameterSetting(name: "ftp", text: text)]), text)
        }
        XCTAssertEqual(try Athlete(settings: [ParameterSetting(name: "ftp", text: "250.5")]).ftp, 250.5)
        let config = NSTemporaryDirectory() + "plain-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: config) }
        let file = AthleteFile(directories: UserDirectories(environment: ["XDG_CONFIG_HOME": config, "HOME": "/nonexistent"]))
        try FileManager.default.createDirectory(atPath: config + "/workout", withIntermediateDirectories: true)
        try "ftp = 0x10\n".write(toFile: file.path, atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try file.read()) { error in
            XCTAssertEqual("\(error)", "\(file.path):1: ftp must be a positive number, got 0x10")
        }
        try "max_hr = 1e-320\n".write(toFile: file.path, atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try file.read())
    }

    func testParametersAndDurationsTakeOnlyPlainNumbers() throws {
        let routine = try load("""
            local p = params { rounds = 8, load = 2.5, rest = "20s" }
            return workout { name = "P", work(1) }
            """)
        func parse(_ name: String, _ text: String) -> ParameterValue? {
            routine.parameters.first { $0.name == name }?.parse(text)
        }
        XCTAssertEqual(parse("rounds", "-3"), .integer(-3))
        XCTAssertEqual(parse("load", "-2.5"), .number(-2.5))
        for text in ["0x10", "+4", "1e3", "1e-320"] {
            XCTAssertNil(parse("rounds", text), text)
            XCTAssertNil(parse("load", text), text)
            XCTAssertNil(parse("rest", text), text)
        }
    }

    func testAToneVolumeThatIsADenormalIsRefused() {
        XCTAssertNotNil(loadError(#"return workout { name = "S", sounds = { work = { hz = 440, ms = 100, volume = 1e-320 } }, work(1) }"#))
        XCTAssertNil(loadError(#"return workout { name = "S", sounds = { work = { hz = 440, ms = 100, volume = 0.5 } }, work(1) }"#))
    }
}
