import TestSupport
import XCTest
@testable import Interchange
@testable import IntervalEngine
@testable import LuaBridge

/// One strict reader of numbers for both importers, and one set of rules for import and
/// export: plain decimals, finite, each field in its range, every error naming the file,
/// the line and the attribute; text read alike with LF, CRLF or a byte-order mark.
final class ImportRulesTests: XCTestCase, ReadsWorkoutFiles {
    func zwo(_ steps: String) -> String {
        "<workout_file>\n<name>T</name>\n<workout>\n\(steps)\n</workout>\n</workout_file>\n"
    }

    func testZwiftNumbersAreFinitePlainDecimalsWithinTheirRange() {
        let plain = "expected a plain decimal number of 0 or more, such as 60 or 0.75"
        let nines = String(repeating: "9", count: 400)
        let cases: [(String, String)] = [
            (#"<SteadyState Duration="60" Power="1e308"/>"#, #"<SteadyState> Power="1e308": \#(plain)"#),
            (#"<SteadyState Duration="60" Power="100000"/>"#, #"<SteadyState> Power="100000": expected 0 to 10 (a fraction of FTP: 1 is 100 %)"#),
            (#"<SteadyState Duration="60" Power="\#(nines)"/>"#, #"<SteadyState> Power="\#(nines)": \#(plain)"#),
            (#"<SteadyState Duration="0x3C" Power="0.5"/>"#, #"<SteadyState> Duration="0x3C": \#(plain)"#),
            (#"<SteadyState Duration="60" Power="0x1p-1"/>"#, #"<SteadyState> Power="0x1p-1": \#(plain)"#),
            (#"<SteadyState Duration="1e-300"/>"#, #"<SteadyState> Duration="1e-300": \#(plain)"#),
            (#"<SteadyState Duration="0.0001"/>"#, #"<SteadyState> Duration="0.0001": expected at least 0.001 seconds and at most 24 hours"#),
            (#"<SteadyState Duration="inf"/>"#, #"<SteadyState> Duration="inf": \#(plain)"#),
            (#"<SteadyState Duration="nan"/>"#, #"<SteadyState> Duration="nan": \#(plain)"#),
            (#"<SteadyState Duration="+60"/>"#, #"<SteadyState> Duration="+60": \#(plain)"#),
            (#"<SteadyState Duration="60" Cadence="1000"/>"#, #"<SteadyState> Cadence="1000": expected 0 to 300 (rpm)"#),
            (#"<IntervalsT Repeat="2" OnDuration="60" OffDuration="60" CadenceResting="-5"/>"#, #"<IntervalsT> CadenceResting="-5": \#(plain)"#),
            (#"<IntervalsT Repeat="2" OnDuration="60" OffDuration="60" PowerOnHigh="11"/>"#, #"<IntervalsT> PowerOnHigh="11": expected 0 to 10 (a fraction of FTP: 1 is 100 %)"#),
            (#"<IntervalsT Repeat="1e3" OnDuration="60" OffDuration="60"/>"#, #"<IntervalsT> Repeat="1e3": \#(plain)"#),
            ("<SteadyState Duration=\"60\">\n<textevent timeoffset=\"0x10\" message=\"Hi\"/>\n</SteadyState>",
             #"<textevent> timeoffset="0x10": expected a plain decimal number of seconds, such as 30 or 2.5"#),
        ]
        for (steps, message) in cases {
            let line = steps.contains("textevent") ? 5 : 4
            XCTAssertEqual(zwoError(zwo(steps)), "bad.zwo:\(line): " + message, steps)
        }
    }

    func testPlainDecimalsAtTheEndsOfTheirRangesAreRead() throws {
        let text = zwo(#"""
            <SteadyState Duration=" 60 " Power="0.75449997" Cadence="300"/>
            <SteadyState Duration="0.001" Power="10" Cadence="0"/>
            <SteadyState Duration="86400" Power="0"/>
            """#)
        let (file, warnings) = try ZwiftReader.read(Array(text.utf8), file: "ok.zwo")
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(file.unrolled.map(\.duration), [60, 0.001, 86400])
        XCTAssertEqual(file.unrolled.map { $0.targets[.power] }, [.number(75.45), .number(1000), .number(0)])
        XCTAssertEqual(file.unrolled.map { $0.targets[.cadence] }, [.number(300), .number(0), nil])
    }

    func testIntervalsTargetsAndDurationsOutsideTheirRangeNameTheLineAndTheWord() {
        let nines = String(repeating: "9", count: 400)
        let cases: [(String, String)] = [
            ("- 10m 60%\n- 5m 100000%\n", "bad.txt:2: 100000%: expected 0 to 1000 (percent of FTP)"),
            ("- 5m 6000w\n", "bad.txt:1: 6000w: expected 0 to 5000 (watts)"),
            ("- 5m 250% HR\n", "bad.txt:1: 250%: expected 0 to 200 (percent of maximum heart rate)"),
            ("- 1m 90-400rpm\n", "bad.txt:1: 90-400rpm: expected 0 to 300 (rpm)"),
            ("- 1m \(nines)%\n", "bad.txt:1: \(nines)%: expected a plain decimal number or a range such as 95-105%"),
            ("- 1m 1.2.3w\n", "bad.txt:1: 1.2.3w: expected a plain decimal number or a range such as 95-105%"),
            ("- 0.0001s 50%\n", "bad.txt:1: 0.0001s: expected at least 0.001 seconds and at most 24 hours"),
            ("- \(nines)s 50%\n", "bad.txt:1: expected a duration such as 10m, 30s, 1m30 or 5' (or press lap) in this step"),
        ]
        for (text, message) in cases {
            XCTAssertEqual(icuError(text), message, text)
        }
    }

    func testASignedRepeatCountIsNotARepeat() throws {
        let (file, _) = try IntervalsReader.read(Array("Main set +2x\n- 1m 50%\n".utf8), file: "t.txt")
        XCTAssertEqual(file.unrolled.count, 1, "\(file.parts)")
    }

    func testIntervalsTextReadsAlikeWithLFCRLFAndAByteOrderMark() throws {
        let lines = ["Tempo", "Steady work", "", "Main set 2x", "- 5m 90%", "- 1m 50%", "", "- Cooldown 10m 45%", ""]
        let lf = Array(lines.joined(separator: "\n").utf8)
        let (expected, _) = try IntervalsReader.read(lf, file: "t.txt")
        XCTAssertEqual(expected.name, "Tempo")
        XCTAssertEqual(expected.unrolled.count, 5)
        let crlf = Array(lines.joined(separator: "\r\n").utf8)
        for (bytes, what) in [(crlf, "CRLF"), (TextLines.byteOrderMark + lf, "BOM and LF"), (TextLines.byteOrderMark + crlf, "BOM and CRLF")] {
            let (file, warnings) = try IntervalsReader.read(bytes, file: "t.txt")
            XCTAssertEqual(warnings, [], what)
            XCTAssertEqual(file, expected, what)
        }
    }

    func testARoutineLoadsWithCRLFAndAByteOrderMark() throws {
        let source = "-- saved on Windows\r\nreturn workout {\r\n  name = \"Win\",\r\n  work(30), rest(10)\r\n}\r\n"
        let routine = try RoutineLoader.load(source: TextLines.byteOrderMark + Array(source.utf8), fileName: "win.lua")
        XCTAssertEqual(routine.name, "Win")
        XCTAssertEqual(routine.timeline.segments.map(\.line), [4, 4], "lines count CRLF as one line end")
    }

    func testASegmentIsAtLeastAMillisecond() {
        XCTAssertThrowsError(try Duration.seconds(0.0005)) { XCTAssertEqual($0 as? Duration.Problem, .tooShort) }
        XCTAssertThrowsError(try Duration.parse("0.0005s")) { XCTAssertEqual($0 as? Duration.Problem, .tooShort) }
        XCTAssertEqual(try Duration.seconds(0.001), 0.001)
        XCTAssertEqual(loadError("return workout { name = \"T\", work(1e-300) }"),
                       "test.lua:1: work: duration must be at least 0.001 seconds (a millisecond), got 1e-300")
    }

    /// What import would refuse, export refuses too, naming the routine's line.
    func testExportRefusesWhatImportWouldRefuse() throws {
        let routine = try load("""
            return workout { name = "N",
              work(60, { power = 80 }),
              work(60, { power = -50, cadence = -10 }),
              rest(30, { watts = { low = 100, high = 9000 } }) }
            """)
        let (file, _) = try RoutineExport.workoutFile(routine, for: .icu)
        let problems = WorkoutFileRules.problems(file).map { "\($0.line): \($0.message)" }
        XCTAssertEqual(problems, [
            "3: info.power = -50: expected 0 to 1000 (percent of FTP)",
            "3: info.cadence = -10: expected 0 to 300 (rpm)",
            "4: info.watts = { low = 100, high = 9000 }: expected 0 to 5000 (watts)",
        ])
        // And the file written anyway is one import refuses: the rules are the same.
        XCTAssertNotNil(zwoError(ZwiftWriter.text(file).text))
        XCTAssertNotNil(icuError(IntervalsWriter.text(file).text))

        let fine = try load("return workout { name = \"F\", work(60, { power = 1000, cadence = 300 }), rest(0.001) }")
        XCTAssertEqual(WorkoutFileRules.problems(try RoutineExport.workoutFile(fine, for: .icu).0).count, 0)
    }
}
