import WorkoutValues
import TestSupport
import XCTest
@testable import Interchange
@testable import IntervalEngine
@testable import LuaBridge

/// What other tools write, read right: intervals.icu's `press lap` (a step the athlete
/// ends) and `60% MMP 5m`, and a Zwift step's `Zone` and `Text` attributes — each kept by
/// import, and written back by export where the format has a place for it.
final class OtherToolsTests: XCTestCase {
    func icu(_ text: String) throws -> (WorkoutFile, [String]) {
        try IntervalsReader.read(Array(text.utf8), file: "t.txt")
    }

    func zwo(_ steps: String) throws -> (WorkoutFile, [String]) {
        let text = "<workout_file>\n<name>T</name>\n<workout>\n\(steps)\n</workout>\n</workout_file>\n"
        return try ZwiftReader.read(Array(text.utf8), file: "t.zwo")
    }

    /// The routine `workout import` writes for the file, loaded.
    func routine(_ file: WorkoutFile, _ format: WorkoutFormat) throws -> Routine {
        try load(ImportedRoutine.text(file, routineName: "t", source: "t", format: format))
    }

    func testPressLapIsAStepTheAthleteEndsKeepingItsTarget() throws {
        let (file, warnings) = try icu("""
            - press lap
            - Press lap 95%
            - Hold the plank press lap
            - 9m Z2 press lap
            - Rest: Walk 2m
            """)
        XCTAssertEqual(warnings, [])
        let steps = file.unrolled
        XCTAssertEqual(steps.map(\.open), [true, true, true, true, false])
        XCTAssertEqual(steps.map(\.duration), [OpenEnd.standardExpect, OpenEnd.standardExpect, OpenEnd.standardExpect, 540, 120])
        XCTAssertEqual(steps[1].targets, Targets([.power: .number(95)]))
        XCTAssertEqual(steps[2].name, "Hold the plank")
        XCTAssertEqual(steps[3].targets, Targets([.zone: .text("Z2")]))

        let routine = try routine(file, .icu)
        let segments = routine.timeline.segments
        XCTAssertEqual(segments.map { $0.open != nil }, [true, true, true, true, false])
        // A duration beside press lap is what the step is expected to take.
        XCTAssertEqual(segments.map { $0.open?.expect }, [60, 60, 60, 540, nil])
        XCTAssertEqual(routine.infoJSON(for: segments[1]).text, #"{"power":95}"#)
        XCTAssertEqual(segments[2].name, "Hold the plank")
    }

    func testAnOpenSegmentIsExportedAsPressLapAndReadBackOpen() throws {
        let routine = try load("""
            return workout { name = "Plank",
              work { open = true, name = "Plank", expect = 45, info = { power = 50 } },
              rest(30),
            }
            """)
        let (file, dropped) = try RoutineExport.workoutFile(routine, for: .icu)
        XCTAssertTrue(dropped.contains("the caps, tallies and scores of 1 open segment (each is a step the lap button ends)"), "\(dropped)")
        let (text, _) = IntervalsWriter.text(file)
        XCTAssertEqual(text, "Plank\n\n- Plank 45s press lap 50%\n- Rest 30s\n")
        let back = try self.routine(try icu(text).0, .icu)
        XCTAssertEqual(back.timeline.segments.map { $0.open?.expect }, [45, nil])
        // The text formats without a lap button still write the expected length.
        let (zwift, _) = try RoutineExport.workoutFile(routine, for: .zwo)
        XCTAssertEqual(zwift.unrolled.map(\.open), [false, false])
    }

    func testAPercentOfMMPKeepsItsTargetAsWritten() throws {
        let (file, warnings) = try icu("""
            - 5m 60% MMP 5m
            - Hard 3m 95% mmp 20m 90rpm
            - 1m 110% MMP
            """)
        XCTAssertEqual(warnings, [])
        let steps = file.unrolled
        XCTAssertEqual(steps.count, 3)
        XCTAssertEqual(steps[0].duration, 300)
        XCTAssertEqual(steps[0].targets, Targets([.mmp: .text("60% MMP 5m")]))
        XCTAssertEqual(steps[1].targets, Targets([.mmp: .text("95% MMP 20m"), .cadence: .number(90)]))
        XCTAssertEqual(steps[1].name, "Hard")
        XCTAssertEqual(steps[1].duration, 180)
        XCTAssertEqual(steps[2].duration, 60)
        XCTAssertEqual(steps[2].targets, Targets([.mmp: .text("110% MMP")]))
        XCTAssertEqual(steps[2].name, "Work")

        let routine = try routine(file, .icu)
        XCTAssertEqual(routine.infoJSON(for: routine.timeline.segments[0]).text, #"{"mmp":"60% MMP 5m"}"#)
        // And back out as intervals.icu wrote it.
        let (text, dropped) = IntervalsWriter.text(file)
        XCTAssertEqual(text, "- 5m 60% MMP 5m\n- Hard 3m 95% MMP 20m 90rpm\n- 1m 110% MMP\n")
        XCTAssertEqual(dropped, [])
    }

    func testAPercentOfMMPOutOfRangeOrNotReadBackIsSaid() throws {
        // The duration after MMP is the power's, not the step's.
        XCTAssertThrowsError(try icu("- 60% MMP 5m\n")) { error in
            XCTAssertEqual("\(error)", "t.txt:1: expected a duration such as 10m, 30s, 1m30 or 5' (or press lap) in this step")
        }
        XCTAssertThrowsError(try icu("- 5m 5000% MMP 5m\n")) { error in
            XCTAssertEqual("\(error)", "t.txt:1: 5000%: expected 0 to 1000 (percent of FTP)")
        }
        var step = WorkoutFile.Step(kind: "work", name: "Work", duration: 60, targets: Targets([.mmp: .text("my best")]))
        var file = WorkoutFile()
        file.parts = [.step(step)]
        XCTAssertEqual(IntervalsWriter.text(file).dropped, [#"mmp (1 step): not of the form "60% MMP 5m""#])
        step.targets = Targets([.mmp: .text("60% MMP 5m")])
        file.parts = [.step(step)]
        XCTAssertEqual(ZwiftWriter.text(file).dropped, ["targets Zwift has no place for: mmp (1 step)"])
    }

    func testAZwiftZoneAndAStepsTextAreKept() throws {
        let (file, warnings) = try zwo("""
            <SteadyState Duration="300" Power="0.65" Zone="2" Text="Settle into it"/>
            <FreeRide Duration="60" Zone="1"/>
            <Warmup Duration="120" PowerLow="0.4" PowerHigh="0.6" Text="Easy">
            <textevent timeoffset="60" message="Halfway"/>
            </Warmup>
            <SteadyState Duration="60" Power="0.5" Zone="eleven" Text="  "/>
            """)
        XCTAssertEqual(warnings, [#"t.zwo:9: <SteadyState> Zone="eleven": expected a zone from 1 to 10; skipped"#])
        let steps = file.unrolled
        XCTAssertEqual(steps[0].targets, Targets([.power: .number(65), .zone: .text("Z2")]))
        XCTAssertEqual(steps[0].prompts, [WorkoutFile.Prompt(offset: 0, text: "Settle into it")])
        XCTAssertEqual(steps[1].targets, Targets([.zone: .text("Z1")]))
        XCTAssertEqual(steps[2].prompts, [WorkoutFile.Prompt(offset: 0, text: "Easy"), WorkoutFile.Prompt(offset: 60, text: "Halfway")])
        XCTAssertEqual(steps[3].targets, Targets([.power: .number(50)]))
        XCTAssertEqual(steps[3].prompts, [])

        let routine = try routine(file, .zwo)
        let first = routine.timeline.segments[0]
        XCTAssertEqual(routine.infoJSON(for: first).text, #"{"power":65,"zone":"Z2"}"#)
        XCTAssertEqual(first.cues.compactMap(\.text), ["Settle into it"])

        // Export writes the zone back; the text comes back as a text event at 0.
        let (text, dropped) = ZwiftWriter.text(file)
        XCTAssertEqual(dropped, [])
        XCTAssertTrue(text.contains(#"<SteadyState Duration="300" Power="0.65" Zone="2">"#), text)
        XCTAssertTrue(text.contains(#"<textevent timeoffset="0" message="Settle into it"/>"#), text)
        func unnumbered(_ steps: [WorkoutFile.Step]) -> [WorkoutFile.Step] {
            steps.map { step in
                var step = step
                step.line = 0
                return step
            }
        }
        XCTAssertEqual(unnumbered(try ZwiftReader.read(Array(text.utf8), file: "back.zwo").0.unrolled), unnumbered(steps))
    }

    func testOnlyASingleZoneGoesIntoZwift() {
        XCTAssertEqual(ZwiftZone.number(.text("Z2")), 2)
        XCTAssertEqual(ZwiftZone.number(.text("z10")), 10)
        for other: Targets.Value in [.text("Z3-Z4"), .text("Z0"), .text("Z11"), .text("CZ1"), .text("Z+2"), .number(2)] {
            XCTAssertNil(ZwiftZone.number(other), "\(other)")
        }
    }
}
