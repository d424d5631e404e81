import Foundation
import WorkoutValues
import TestSupport
import XCTest
@testable import Interchange
@testable import IntervalEngine

/// A runner's and a rower's workouts in and out: intervals.icu's distances (`400mtr`,
/// `1km`, `2mi`; a bare `m` stays minutes) and paces, FIT's distance durations and
/// speed targets, as routines with distance steps.
final class RunnerInterchangeTests: XCTestCase {
    let text = """
        Track

        Warmup
        - 10m Z2 Pace

        Main set 4x
        - 400mtr 4:00/km Pace
        - 90s Z1 Pace

        - 1km 95% Pace
        - 2mi
        - 800yds
        - Row 500mtr 1:55/500m Pace
        """

    func read(_ text: String) throws -> WorkoutFile {
        try IntervalsReader.read(Array(text.utf8), file: "track.txt").0
    }

    func testIntervalsDistancesAndPacesBecomeDistanceSteps() throws {
        let file = try read(text)
        let steps = file.unrolled
        XCTAssertEqual(steps.map(\.distance), [nil, 400, nil, 400, nil, 400, nil, 400, nil, 1_000, 3_218.688, 731.52, 500])
        XCTAssertEqual(steps[0].duration, 600, "10m is ten minutes")
        XCTAssertEqual(steps[1].targets[.pace], .text("4:00/km"))
        XCTAssertEqual(steps[1].duration, 96, "400 m at 4:00/km")
        XCTAssertEqual(steps[9].targets[.pace], .number(95))
        XCTAssertEqual(steps[2].targets[.paceZone], .text("Z1"))
        let routine = try load(ImportedRoutine.text(file, routineName: "track", source: "track.txt", format: .icu))
        let segments = routine.timeline.segments
        XCTAssertEqual(segments.map(\.open?.distance), steps.map(\.distance))
        XCTAssertEqual(segments[1].duration, 96)
        XCTAssertEqual(segments[12].duration, 115, "500 m at 1:55/500m")
        // Written back, it is the text it was read from.
        let (file2, _) = try RoutineExport.workoutFile(routine, for: .icu)
        let written = IntervalsWriter.text(file2).text
        XCTAssertTrue(written.contains("- 400mtr 4:00/km Pace\n"), written)
        XCTAssertTrue(written.contains("- 1km 95% Pace\n- 2mi\n- 731.52mtr\n- Row 500mtr 1:55/500m Pace"), written)
        XCTAssertEqual(try read(written).unrolled.map(\.distance), steps.map(\.distance))
    }

    func testADistanceNoStepHasIsRefused() {
        for (line, expected) in [("- 0mtr", "0mtr: expected a distance above 0 and at most 100 km, such as 400mtr, 1km or 2mi"),
                                 ("- 200km", "200km: expected a distance above 0 and at most 100 km, such as 400mtr, 1km or 2mi")] {
            XCTAssertThrowsError(try read(line), line) { error in
                XCTAssertEqual((error as? WorkoutFileError)?.description, "track.txt:1: " + expected)
            }
        }
    }

    func testFITDistanceDurationsAndSpeedTargetsRoundTrip() throws {
        var run = WorkoutFile()
        run.name = "Track"
        var rep = WorkoutFile.Step(kind: "work", name: "Rep", duration: 96, targets: Targets([.pace: .text("4:00/km")]))
        rep.distance = 400
        var easy = WorkoutFile.Step(kind: "work", name: "Easy", duration: 360)
        easy.distance = 1_000
        run.parts = [.repeats(count: 4, name: nil, steps: [rep, WorkoutFile.Step(kind: "rest", name: "Rest", duration: 90)]),
                     .step(easy)]
        let (bytes, dropped) = FITWorkoutWriter.bytes(run)
        XCTAssertEqual(dropped, [])
        let (back, warnings) = try FITWorkoutReader.read(bytes, file: "track.fit")
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(back.unrolled.map(\.distance), run.unrolled.map(\.distance))
        XCTAssertEqual(back.unrolled.map { $0.targets[.pace] }, run.unrolled.map { $0.targets[.pace] })
        XCTAssertEqual(back.unrolled.map(\.duration), run.unrolled.map(\.duration))
        XCTAssertEqual(FITWorkoutWriter.Sport.implied(by: run), .running)
        // A rower's split: rowing, read back as a split.
        var row = WorkoutFile()
        var piece = WorkoutFile.Step(kind: "work", name: "Piece", duration: 115, targets: Targets([.pace: .text("1:55/500m")]))
        piece.distance = 500
        row.parts = [.step(piece)]
        XCTAssertEqual(FITWorkoutWriter.Sport.implied(by: row), .rowing)
        let (rowed, _) = try FITWorkoutReader.read(FITWorkoutWriter.bytes(row).bytes, file: "row.fit")
        XCTAssertEqual(rowed.unrolled.first?.targets[.pace], .text("1:55/500m"))
        XCTAssertEqual(rowed.unrolled.first?.distance, 500)
    }

    func testAHeartRateBandIsNamedAsLostOnExport() throws {
        let routine = try load("return workout { name = \"S\", work{ duration = 60, hr = { 135, 145 } } }")
        let (_, dropped) = try RoutineExport.workoutFile(routine, for: .icu)
        XCTAssertEqual(dropped, ["the heart-rate bands (hr = { … }) of 1 segment, which steer a machine as the workout runs"])
    }
}
