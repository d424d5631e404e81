import WorkoutValues
import XCTest
@testable import Interchange
@testable import IntervalEngine

/// Bad input: every error names the file and line and says what was expected; unknown
/// parts are warnings naming their line.
final class WorkoutFileErrorTests: XCTestCase, ReadsWorkoutFiles {
    func zwo(_ steps: String) -> String {
        "<workout_file>\n<name>T</name>\n<workout>\n\(steps)\n</workout>\n</workout_file>\n"
    }

    func testMalformedXMLNamesTheLineAndWhatWasExpected() {
        let cases: [(String, String)] = [
            ("", "bad.zwo:1: expected an XML element such as <workout_file>, got an empty file"),
            ("just text", "bad.zwo:1: expected an XML element such as <workout_file>, got text"),
            ("<workout_file>\n<workout>\n<SteadyState Duration=\"60\" Power=\"1\">\n</workout>\n</workout_file>",
             "bad.zwo:4: expected </SteadyState> (opened on line 3), got </workout>"),
            ("<workout_file>\n<workout>\n", "bad.zwo:3: the file ends inside <workout> (opened on line 2); expected </workout>"),
            ("<workout_file>\n<workout>\n<SteadyState Duration=60/>", "bad.zwo:3: expected a quoted value for the attribute Duration in <SteadyState>"),
            ("<workout_file>\n<workout>\n<SteadyState Duration=\"60\" Duration=\"70\"/>", "bad.zwo:3: the attribute Duration appears twice in <SteadyState>"),
            ("<!DOCTYPE x [<!ENTITY a \"aaaa\">]>\n<workout_file/>", "bad.zwo:1: a DOCTYPE or other declaration is not expected in a workout file"),
            ("<workout_file>\n<name>Fish &chips;</name>", "bad.zwo:2: &chips; is not an entity XML knows (&lt; &gt; &amp; &quot; &apos; or &#NNN;)"),
            ("<workout_file>\n<!-- open", "bad.zwo:2: the file ends inside a comment that started on line 2"),
            ("<workout_file></workout_file>\n<more/>", "bad.zwo:2: expected nothing after the root element's end, got <more>"),
            ("</workout_file>", "bad.zwo:1: </workout_file> closes an element that was never opened"),
            ("<workout_file>\n<name a=\"<\"/>", "bad.zwo:2: expected &lt; for a < in the value of a"),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(zwoError(text), expected, text)
        }
    }

    func testAWorkoutFileNeedsItsPartsWithValidValues() {
        let cases: [(String, String)] = [
            ("<plan/>", "bad.zwo:1: expected <workout_file> as the outermost element, got <plan>"),
            ("<workout_file>\n<name>T</name>\n</workout_file>", "bad.zwo:3: expected a <workout> element holding the steps"),
            (zwo(""), "bad.zwo:3: <workout> holds no steps (Warmup, SteadyState, IntervalsT, Ramp, FreeRide, MaxEffort, Cooldown)"),
            (zwo("<SteadyState Power=\"0.5\"/>"), "bad.zwo:4: <SteadyState> needs Duration, its length in seconds"),
            (zwo("<SteadyState Duration=\"ten\"/>"), "bad.zwo:4: <SteadyState> Duration=\"ten\": expected a plain decimal number of 0 or more, such as 60 or 0.75"),
            (zwo("<SteadyState Duration=\"0\"/>"), "bad.zwo:4: <SteadyState> Duration=\"0\": expected at least 0.001 seconds and at most 24 hours"),
            (zwo("<Warmup Duration=\"60\" PowerLow=\"-1\"/>"), "bad.zwo:4: <Warmup> PowerLow=\"-1\": expected a plain decimal number of 0 or more, such as 60 or 0.75"),
            (zwo("<IntervalsT OnDuration=\"60\" OffDuration=\"60\"/>"), "bad.zwo:4: <IntervalsT> needs Repeat, how many times the pair of intervals runs"),
            (zwo("<IntervalsT Repeat=\"2.5\" OnDuration=\"60\" OffDuration=\"60\"/>"), "bad.zwo:4: <IntervalsT> Repeat=\"2.5\": expected a whole number from 1 to 10000"),
            (zwo("<IntervalsT Repeat=\"2\" OnDuration=\"60\"/>"), "bad.zwo:4: <IntervalsT> needs OffDuration, its length in seconds"),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(zwoError(text), expected, text)
        }
    }

    func testUnknownElementsAreWarningsAndSkipped() throws {
        let text = zwo("""
            <SteadyState Duration="60" Power="0.8">
              <gameplayevent timeoffset="5" camera="2"/>
              <textevent distoffset="100" message="By distance"/>
              <textevent timeoffset="70" message="Too late"/>
            </SteadyState>
            <RestDay/>
            <textevent timeoffset="500" message="After the end"/>
            <FreeRide Duration="30"/>
            """)
        let (file, warnings) = try ZwiftReader.read(Array(text.utf8), file: "odd.zwo")
        XCTAssertEqual(warnings, [
            "odd.zwo:5: <gameplayevent> inside <SteadyState> is not a text event; skipped",
            "odd.zwo:6: <textevent> is placed by distance, which a timer cannot follow; skipped",
            "odd.zwo:7: a text event at 70 s is past the end of <SteadyState> (60 s); skipped",
            "odd.zwo:9: <RestDay> is not a step workout knows (Warmup, SteadyState, IntervalsT, Ramp, FreeRide, MaxEffort, Cooldown); skipped",
            "odd.zwo:10: a text event at 500 s is past the end of the workout; skipped",
        ])
        XCTAssertEqual(file.unrolled.map(\.name), ["Work", "Free ride"])
        XCTAssertEqual(file.unrolled.map(\.line), [4, 11])
    }

    func testEscapeSequencesInAFileReachTheTerminalEscaped() throws {
        let text = zwo("<SteadyState Duration=\"60\">\n<textevent timeoffset=\"\u{1B}[2J\" message=\"x\"/>\n</SteadyState>")
        XCTAssertEqual(zwoError(text), #"bad.zwo:5: <textevent> timeoffset="\27[2J": expected a plain decimal number of seconds, such as 30 or 2.5"#)
        XCTAssertEqual(zwoError("<workout_file>\n<Bad\u{1B}[2J/>"), #"bad.zwo:2: expected a space, > or /> in <Bad>, got '\27'"#)
        XCTAssertEqual(zwoError("<workout_file>\n<name>\u{1B}[31m&bogus\u{7};</name>"),
                       #"bad.zwo:2: &bogus\7; is not an entity XML knows (&lt; &gt; &amp; &quot; &apos; or &#NNN;)"#)
        XCTAssertEqual(icuError("- \u{1B}]0;title\u{7} 999km"),
                       #"bad.txt:1: 999km: expected a distance above 0 and at most 100 km, such as 400mtr, 1km or 2mi"#)
        XCTAssertEqual(icuError("Main set \u{1B}[5m 2x\n"), "bad.txt:2: no steps found (expected lines such as \"- 10m 60%\")")
    }

    func testBadIntervalsTextNamesTheLine() {
        let cases: [(String, String)] = [
            ("", "bad.txt:1: no steps found (expected lines such as \"- 10m 60%\")"),
            ("Just a note\n", "bad.txt:2: no steps found (expected lines such as \"- 10m 60%\")"),
            ("Warmup\n- 10m 60%\n- easy spin\n", "bad.txt:3: expected a duration such as 10m, 30s, 1m30 or 5' (or press lap) in this step"),
            ("- 200km 70%\n", "bad.txt:1: 200km: expected a distance above 0 and at most 100 km, such as 400mtr, 1km or 2mi"),
            ("- 25h Z1\n", "bad.txt:1: 25h: expected at least 0.001 seconds and at most 24 hours"),
            ("- 0s 50%\n", "bad.txt:1: 0s: expected at least 0.001 seconds and at most 24 hours"),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(icuError(text), expected, text)
        }
    }

    func testIntervalsDurationsAndTargets() throws {
        let text = """
            - 1h Z2
            - 1m30 75% 90 rpm
            - 5' 200 - 240w
            - 1'30" ramp 60%-80%
            - 1h2m30s 70-80% HR
            - Hard one 45s 95-100% LTHR press lap
            - 30s 3:00/100m-4:00/100m Pace
            - 2m Z3-Z4 Pace
            - 4m 100% <!> 33^Settle in <!> 2m^Two to go <!> 5m^Too late
            """
        let (file, warnings) = try IntervalsReader.read(Array(text.utf8), file: "t.txt")
        XCTAssertEqual(warnings, [#"t.txt:9: the prompt "Too late" at 300 s is past the end of its 4m step; skipped"#])
        let steps = file.unrolled
        XCTAssertEqual(steps.map(\.duration), [3600, 90, 300, 90, 3750, 45, 30, 120, 240])
        XCTAssertEqual(steps[0].targets, Targets([.zone: .text("Z2")]))
        XCTAssertEqual(steps[1].targets, Targets([.power: .number(75), .cadence: .number(90)]))
        XCTAssertEqual(steps[2].targets, Targets([.watts: .range(low: 200, high: 240)]))
        XCTAssertEqual(steps[3].targets, Targets([.power: .range(low: 60, high: 80), .ramp: .flag]))
        XCTAssertEqual(steps[4].targets, Targets([.hr: .range(low: 70, high: 80)]))
        XCTAssertEqual(steps[5].targets, Targets([.lthr: .range(low: 95, high: 100)]))
        XCTAssertEqual(steps[5].name, "Hard one")
        XCTAssertEqual(steps.map(\.open), [false, false, false, false, false, true, false, false, false])
        XCTAssertEqual(steps[6].targets, Targets([.pace: .text("3:00/100m-4:00/100m")]))
        XCTAssertEqual(steps[7].targets, Targets([.paceZone: .text("Z3-Z4")]))
        XCTAssertEqual(steps[8].prompts, [WorkoutFile.Prompt(offset: 33, text: "Settle in"), WorkoutFile.Prompt(offset: 120, text: "Two to go")])
    }

    func testIntervalsSectionsKindsAndRepeats() throws {
        let text = """
            Warm-up
            - 10m 55%
            - Openers 1m 110%

            Main set 3x

            - 4m 105%
            - 4m 55%
            - Recovery spin 2m 50%
            - Rest: Walk 1m
            - Prep: Get ready 30s
            - Stretch: Calves 1m
            - Note: gear down 1m 60%

            Cool down
            - 5m 45%
            """
        let (file, _) = try IntervalsReader.read(Array(text.utf8), file: "t.txt")
        XCTAssertNil(file.name)
        XCTAssertEqual(file.parts.count, 2 + 1 + 1)
        guard case let .repeats(count, name, steps) = file.parts[2] else { return XCTFail("\(file.parts[2])") }
        XCTAssertEqual(count, 3)
        XCTAssertEqual(name, "Main set")
        XCTAssertEqual(steps.count, 7)
        let kinds = file.unrolled.map { "\($0.kind) \($0.name)" }
        XCTAssertEqual(kinds.prefix(2), ["warmup Warmup", "warmup Openers"])
        XCTAssertEqual(kinds.suffix(5), ["rest Walk", "prep Get ready", "stretch Calves", "note gear down", "cooldown Cooldown"])
        XCTAssertEqual(kinds[4], "rest Recovery spin")
    }
}
