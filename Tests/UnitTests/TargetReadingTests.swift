import WorkoutValues
import TestSupport
import XCTest
@testable import IntervalEngine

/// `plan` and the live display's info area show targets as a rider reads them
/// (`25–75% FTP`, `140–150 bpm`), not as the JSON of `{ low = 25, high = 75 }`.
final class TargetReadingTests: XCTestCase {
    func summary(_ info: String) throws -> String? {
        let routine = try load("return workout { name = \"T\", work { duration = 60, info = \(info) } }")
        return InfoText.summary(routine.infoJSON(for: routine.timeline.segments[0]))
    }

    func testRangesReadAsARiderReadsThem() throws {
        let cases: [(String, String)] = [
            ("{ power = { low = 25, high = 75 } }", "25–75% FTP"),
            ("{ power = { low = 25, high = 75 }, ramp = true, cadence = 85 }", "ramp 25–75% FTP · 85 rpm"),
            ("{ power = { low = 60, high = 30 }, ramp = true }", "ramp 60–30% FTP"),
            ("{ bpm = { low = 140, high = 150 } }", "140–150 bpm"),
            ("{ watts = { low = 200, high = 240 }, cadence = { low = 85, high = 95 } }", "200–240 W · 85–95 rpm"),
            ("{ hr = 70, lthr = { low = 95, high = 100 } }", "70% HR · 95–100% LTHR"),
            ("{ pace = \"5:00/km\", pace_zone = \"Z2\" }", "5:00/km pace · Z2 pace"),
            ("{ pace = 80, hr_zone = \"Z2\", zone = \"Z3-Z4\" }", "80% pace · Z3-Z4 · Z2 HR"),
            ("{ mmp = \"60% MMP 5m\" }", "60% MMP 5m"),
            ("{ freeride = true }", "free ride"),
            ("{ max_effort = true, power = 150.5 }", "150.5% FTP · all out"),
            // A ramp with no range to make one of says so on its own.
            ("{ ramp = true, power = 50 }", "50% FTP · ramp"),
        ]
        for (info, expected) in cases {
            XCTAssertEqual(try summary(info), expected, info)
        }
    }

    func testOtherFieldsStayKeyValueAndTheSentenceComesFirst() throws {
        XCTAssertEqual(try summary("{ text = \"Stay seated\", power = { low = 88, high = 92 }, gear = \"39x17\" }"),
                       "Stay seated · 88–92% FTP · gear: 39x17")
        // A target's name with a value of another shape is the routine's own field.
        XCTAssertEqual(try summary("{ power = \"high\", cadence = { low = 1 } }"), #"cadence: {"low":1} · power: high"#)
        XCTAssertEqual(try summary("{ zone = \"Z2\\27[2J\" }"), "Z2\\27[2J")
    }

    func testAnImportedRoutinesPlanShowsItsTargetsInWords() throws {
        let source = try String(contentsOf: interchangeFixtures.appendingPathComponent("over-unders.lua"), encoding: .utf8)
        let routine = try load(source)
        let shown = routine.timeline.segments.map { InfoText.summary(routine.infoJSON(for: $0)) }
        XCTAssertEqual(shown[0], "ramp 25–75% FTP · 85 rpm")
        XCTAssertEqual(shown[2], "105% FTP · 95 rpm")
        XCTAssertEqual(shown[16], nil)
        XCTAssertFalse(shown.contains { $0?.contains("{") == true }, "\(shown)")
    }
}
