import Foundation
import WorkoutValues
import TestSupport
import XCTest
@testable import Interchange
@testable import IntervalEngine

/// Zwift run workouts: `sportType` run gives power as a fraction of threshold pace (`pace`),
/// `durationType` distance gives metres (distance steps); export writes a routine of distance
/// steps that way and a mix of distance and time steps as time, saying why.
final class ZwiftRunTests: XCTestCase {
    func zwo(_ workout: String, durationType: String? = "distance", sport: String = "run") -> [UInt8] {
        let measure = durationType.map { "<durationType>\($0)</durationType>" } ?? ""
        return Array("""
            <workout_file><name>Track</name><sportType>\(sport)</sportType>\(measure)
            <workout>
            \(workout)
            </workout></workout_file>
            """.utf8)
    }

    func read(_ bytes: [UInt8]) throws -> (WorkoutFile, [String]) {
        try ZwiftReader.read(bytes, file: "run.zwo")
    }

    func testADistanceRunGivesDistanceStepsAndPaceTargets() throws {
        let (file, warnings) = try read(zwo("""
            <Warmup Duration="1600" PowerLow="0.7" PowerHigh="0.85" pace="0"/>
            <IntervalsT Repeat="2" OnDuration="400" OffDuration="200" OnPower="1.05" OffPower="0.6" pace="1"/>
            <SteadyState Duration="1000" Power="0.9"><textevent distoffset="500" message="Halfway"/></SteadyState>
            """))
        XCTAssertEqual(warnings, ["run.zwo:5: <textevent> is placed by distance, which a timer cannot follow; skipped"],
                       "the pace attribute is passed over silently")
        let steps = file.unrolled
        XCTAssertEqual(steps.map(\.distance), [1_600, 400, 200, 400, 200, 1_000])
        XCTAssertEqual(steps.map(\.duration), [576, 144, 72, 144, 72, 360], "expected at plan's easy 6:00/km")
        XCTAssertEqual(steps[0].targets[.pace], .range(low: 70, high: 85))
        XCTAssertEqual(steps[1].targets[.pace], .number(105))
        XCTAssertNil(steps[1].targets[.power])
        let routine = try load(ImportedRoutine.text(file, routineName: "track", source: "run.zwo", format: .zwo))
        XCTAssertEqual(routine.timeline.segments.map(\.open?.distance), steps.map(\.distance))
    }

    func testATimedRunGivesTimedStepsAndPaceTargets() throws {
        let (file, warnings) = try read(zwo(#"<SteadyState Duration="300" Power="1.05"/>"#, durationType: "time"))
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(file.unrolled.map(\.distance), [nil])
        XCTAssertEqual(file.unrolled.map(\.duration), [300])
        XCTAssertEqual(file.unrolled.first?.targets[.pace], .number(105))
    }

    func testABikeFileIsUnchanged() throws {
        let (file, _) = try read(zwo(#"<SteadyState Duration="300" Power="0"/>"#, durationType: nil, sport: "bike"))
        XCTAssertEqual(file.unrolled.first?.duration, 300)
        XCTAssertEqual(file.unrolled.first?.targets[.power], .number(0), "a ride may coast at 0")
    }

    func testBadMetresAndPowerAreErrorsWithFileAndLine() {
        let cases: [(String, String?, String)] = [
            (#"<SteadyState Duration="0" Power="1"/>"#, "distance",
             #"run.zwo:3: <SteadyState> Duration="0": expected metres above 0 and at most 100 km (the workout's durationType is distance)"#),
            (#"<SteadyState Duration="200000" Power="1"/>"#, "distance",
             #"run.zwo:3: <SteadyState> Duration="200000": expected metres above 0 and at most 100 km (the workout's durationType is distance)"#),
            (#"<SteadyState Duration="-400" Power="1"/>"#, "distance",
             #"run.zwo:3: <SteadyState> Duration="-400": expected a plain decimal number of 0 or more, such as 60 or 0.75"#),
            (#"<SteadyState Duration="400" Power="0"/>"#, "distance",
             #"run.zwo:3: <SteadyState> Power="0": expected above 0 and at most 10 (in a run, a fraction of threshold pace: 1 is threshold pace)"#),
            (#"<SteadyState Duration="400" Power="1"/>"#, "laps", #"run.zwo:1: <durationType> "laps": expected time or distance"#),
        ]
        let late = Array(#"<workout_file><workout><SteadyState Duration="400"/></workout><durationType>distance</durationType></workout_file>"#.utf8)
        XCTAssertThrowsError(try read(late)) { error in
            XCTAssertEqual((error as? WorkoutFileError)?.description, "run.zwo:1: <durationType> comes after <workout>: "
                           + "it must come before, as it says how the steps' durations are read")
        }
        for (element, measure, expected) in cases {
            XCTAssertThrowsError(try read(zwo(element, durationType: measure)), element) { error in
                XCTAssertEqual((error as? WorkoutFileError)?.description, expected)
            }
        }
    }

    func step(_ kind: String, metres: Double?, seconds: Double, pace: Double) -> WorkoutFile.Step {
        var step = WorkoutFile.Step(kind: kind, name: Routine.defaultName(kind), duration: seconds, targets: Targets([.pace: .number(pace)]))
        step.distance = metres
        return step
    }

    func testDistanceStepsOnlyAreWrittenInMetresAndReadBackTheSame() throws {
        var run = WorkoutFile()
        run.name = "Track"
        var warmup = step("warmup", metres: 1_600, seconds: 576, pace: 80)
        warmup.prompts = [WorkoutFile.Prompt(offset: 0, text: "Easy")]
        run.parts = [.step(warmup),
                     .repeats(count: 4, name: nil, steps: [step("work", metres: 400, seconds: 144, pace: 105),
                                                           step("rest", metres: 200, seconds: 72, pace: 60)])]
        let (text, dropped) = ZwiftWriter.text(run)
        XCTAssertTrue(text.contains("<sportType>run</sportType>\n    <durationType>distance</durationType>"), text)
        XCTAssertTrue(text.contains(#"<Warmup Duration="1600" PowerLow="0.8" PowerHigh="0.8"/>"#), text)
        XCTAssertTrue(text.contains(#"<IntervalsT Repeat="4" OnDuration="400" OffDuration="200" OnPower="1.05" OffPower="0.6"/>"#), text)
        XCTAssertEqual(dropped, [ZwiftDistance.cuesWarning(1)])
        let (back, warnings) = try read(Array(text.utf8))
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(back.unrolled.map(\.distance), run.unrolled.map(\.distance))
        XCTAssertEqual(back.unrolled.map { $0.targets[.pace] }, run.unrolled.map { $0.targets[.pace] })
        XCTAssertEqual(ZwiftWriter.text(back).text, text, "written again, the same file")
    }

    func testAMixIsWrittenAsTimeWithAWarningAndPaceByTimeIsARun() throws {
        var mixed = WorkoutFile()
        mixed.parts = [.step(step("work", metres: 400, seconds: 96, pace: 105)), .step(step("rest", metres: nil, seconds: 90, pace: 60))]
        let (text, dropped) = ZwiftWriter.text(mixed)
        XCTAssertTrue(text.contains("<durationType>time</durationType>"), text)
        XCTAssertTrue(text.contains(#"<SteadyState Duration="96" Power="1.05"/>"#), text)
        XCTAssertEqual(dropped, ["1 distance step written as the time each is expected to take: a Zwift workout measures "
                                 + "all its steps in time or all in distance, and this routine mixes them"])
        var ride = WorkoutFile()
        ride.parts = [.step(WorkoutFile.Step(kind: "work", name: "Work", duration: 60, targets: Targets([.power: .number(90)])))]
        let bike = ZwiftWriter.text(ride).text
        XCTAssertTrue(bike.contains("<sportType>bike</sportType>\n    <workout>"), "a ride says no durationType: \(bike)")
    }
}
