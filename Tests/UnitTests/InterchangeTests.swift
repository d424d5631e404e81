import Foundation
import WorkoutValues
import TestSupport
import XCTest
@testable import Interchange
@testable import IntervalEngine



/// Reads a workout file the way `workout import` does: the format from the extension.
func readWorkoutFile(_ url: URL) throws -> (WorkoutFile, warnings: [String]) {
    let bytes = [UInt8](try Data(contentsOf: url))
    switch WorkoutFormat(pathExtension: url.pathExtension) {
    case .zwo?: return try ZwiftReader.read(bytes, file: url.lastPathComponent)
    case .icu?: return try IntervalsReader.read(bytes, file: url.lastPathComponent)
    case .fit?: return try FITWorkoutReader.read(bytes, file: url.lastPathComponent)
    case .erg?, .mrc?: return try CourseReader.read(bytes, file: url.lastPathComponent)
    case nil: throw WorkoutFileError(file: url.lastPathComponent, line: 0, "no format")
    }
}

/// The fixtures (written for the project in the shapes real files have) against the Lua
/// routines `workout import` must make of them, byte for byte.
final class InterchangeTests: XCTestCase {
    func golden(_ name: String, _ ext: String, warnings expected: [String]) throws -> Routine {
        let source = interchangeFixtures.appendingPathComponent("\(name).\(ext)")
        let (file, warnings) = try readWorkoutFile(source)
        XCTAssertEqual(warnings, expected)
        let text = ImportedRoutine.text(file, routineName: name, source: source.lastPathComponent,
                                        format: WorkoutFormat(pathExtension: ext)!)
        let want = try String(contentsOf: interchangeFixtures.appendingPathComponent("\(name).lua"), encoding: .utf8)
        XCTAssertEqual(text, want, "\(name).\(ext): the routine differs from \(name).lua")
        return try load(text)
    }

    func row(_ segment: Segment, _ routine: Routine) -> String {
        "\(segment.kind) \(Number.format(segment.duration)) \(segment.name) \(routine.infoJSON(for: segment).text)"
            + segment.cues.compactMap { cue in cue.offset(in: segment.duration).map { " @\(Number.format($0)) \(cue.text ?? "")" } }
                .sorted().joined()
    }

    func testAZwiftWorkoutBecomesTheRoutineAPersonWouldWrite() throws {
        let routine = try golden("over-unders", "zwo", warnings: [
            "over-unders.zwo:14: <ftpOverride> is not part of a workout file workout knows; skipped",
        ])
        XCTAssertEqual(routine.name, "Over-Unders 3x6")
        XCTAssertEqual(routine.timeline.duration, 3440)
        let rows = routine.timeline.segments.map { row($0, routine) }
        XCTAssertEqual(rows.count, 20)
        XCTAssertEqual(rows[0], #"warmup 600 Warmup {"cadence":85,"power":{"high":75,"low":25},"ramp":true} @0 Easy spin to start @540 One minute to go"#)
        XCTAssertEqual(rows[2], #"work 120 Work {"cadence":95,"power":105} @10 Over: push!"#)
        XCTAssertEqual(rows[3], #"rest 60 Rest {"cadence":85,"power":95}"#)
        XCTAssertEqual(rows[6], #"work 120 Work {"cadence":95,"power":105} @10 Last over!"#)
        XCTAssertEqual(rows[17], #"work 20 Max effort {"max_effort":true}"#)
        XCTAssertEqual(rows[16], "work 300 Free ride null")
        // Zwift's float noise is gone, and the loose text event found the cool-down.
        XCTAssertEqual(rows[18], #"work 240 Work {"cadence":{"high":90,"low":80},"power":{"high":55.45,"low":50.45}}"#)
        XCTAssertEqual(rows[19], #"cooldown 420 Cooldown {"power":{"high":30,"low":60},"ramp":true} @330 Nearly there"#)
    }

    func testIntervalsTextBecomesTheRoutineAPersonWouldWrite() throws {
        let routine = try golden("sweet-spot", "txt", warnings: [])
        XCTAssertEqual(routine.name, "Sweet spot and sprints")
        XCTAssertEqual(routine.description, "Sweet spot blocks, then short sprints. Keep the cadence high in the sprints.")
        let rows = routine.timeline.segments.map { row($0, routine) }
        XCTAssertEqual(rows.count, 2 + 6 + 12 + 3)
        XCTAssertEqual(rows[0], #"warmup 600 Warmup {"cadence":90,"power":{"high":75,"low":50},"ramp":true}"#)
        XCTAssertEqual(rows[1], #"warmup 180 Spin-ups {"cadence":{"high":110,"low":100},"power":60}"#)
        XCTAssertEqual(rows[2], #"work 600 Sweet spot {"cadence":90,"power":{"high":92,"low":88}} @300 Halfway, stay smooth @540 One minute"#)
        XCTAssertEqual(rows[3], #"rest 300 Recovery {"cadence":85,"power":55}"#)
        XCTAssertEqual(routine.timeline.segments[2].block, "Main set")
        XCTAssertEqual(rows[9], #"work 45 Work {"zone":"Z1"}"#)
        XCTAssertEqual(rows[20], #"work 300 Steady {"watts":{"high":220,"low":200}}"#)
        XCTAssertEqual(rows[21], #"work 120 Work {"freeride":true}"#)
        XCTAssertEqual(rows[22], #"cooldown 300 Cooldown {"power":{"high":40,"low":70},"ramp":true}"#)
    }

    func testHeartRateAndPaceTargets() throws {
        let routine = try golden("tempo-run", "txt", warnings: [])
        XCTAssertEqual(routine.name, "Tempo run")
        XCTAssertEqual(routine.timeline.segments.map { row($0, routine) }, [
            #"warmup 900 Warm up {"hr_zone":"Z2"}"#,
            #"work 90 Strides {"pace":85}"#,
            #"work 600 Work {"lthr":95}"#,
            #"work 150 Jog {"hr":70}"#,
            #"work 600 Work {"lthr":95}"#,
            #"work 150 Jog {"hr":70}"#,
            #"work 480 Work {"pace":"4:50/km"}"#,
            #"cooldown 600 Cool down {"pace_zone":"Z1-Z2"}"#,
        ])
    }

    /// The hook the import writes shows the targets: the `print` of each segment start.
    func testTheImportedRoutineShowsEachSegmentsTargets() throws {
        let routine = try load(try String(contentsOf: interchangeFixtures.appendingPathComponent("sweet-spot.lua"), encoding: .utf8))
        let harness = Harness(routine)
        let printed = harness.run().filter { $0.contains(" log ") }.map { String($0.split(separator: " ", maxSplits: 2)[2]) }
        XCTAssertEqual(Array(printed.prefix(4)), [
            "ramp 50-75% FTP · 90 rpm", "60% FTP · 100-110 rpm", "88-92% FTP · 90 rpm", "55% FTP · 85 rpm",
        ])
        XCTAssertTrue(printed.contains("Z1"), "\(printed)")
        XCTAssertTrue(printed.contains("200-220 W"), "\(printed)")
        XCTAssertTrue(printed.contains("free ride"), "\(printed)")
    }
}
