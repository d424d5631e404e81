import Foundation
import WorkoutValues
import TestSupport
import XCTest
@testable import Interchange
@testable import IntervalEngine
@testable import LuaBridge

/// `import(export(r))` gives `r`'s timeline back: kinds, durations, names, the targets in
/// `info` and the text cues, for every bundled routine that is not open-ended and for the
/// imported fixtures (which have targets), through both formats.
final class RoundTripTests: XCTestCase {
    /// What each format carries of the targets; the rest is named in a warning. Zwift
    /// carries pace as a run workout's power, and a free ride as a FreeRide, which is read
    /// back as no target at all; a single zone `Z1`…`Z10` goes as `Zone="1"`.
    func carries(_ format: WorkoutFormat, _ key: Targets.Key, _ value: Targets.Value) -> Bool {
        switch format {
        case .zwo:
            if key == .pace, case .number = value { return true }
            if key == .zone, ZwiftZone.number(value) != nil { return true }
            return [.power, .ramp, .cadence, .maxEffort].contains(key)
        case .icu:
            return key != .maxEffort && key != .bpm
        case .fit:
            return [.power, .watts, .zone, .hr, .bpm, .hrZone, .cadence].contains(key)
        case .erg, .mrc:
            return [.power, .watts, .ramp].contains(key)
        }
    }

    /// The text formats, which these tests read back through the Lua; FIT, binary, has
    /// its own round trips in FITWorkoutTests (export → import → export, byte for byte).
    static let textFormats: [WorkoutFormat] = [.zwo, .icu]

    struct Row: Equatable, CustomStringConvertible {
        var kind: String
        var duration: Double
        var name: String
        var targets: Targets
        var cues: [WorkoutFile.Prompt]
        var description: String { "\(kind) \(Number.format(duration)) \(name) \(targets.ordered.map { "\($0.key)=\($0.value)" }) \(cues.map { "\($0.offset):\($0.text)" })" }
    }

    func rows(_ routine: Routine, through format: WorkoutFormat? = nil) -> [Row] {
        routine.timeline.segments.map { segment in
            var ignored = Set<String>()
            let targets = Targets(info: routine.infoJSON(for: segment), ignored: &ignored)
            let cues = segment.cues.compactMap { cue in
                cue.offset(in: segment.duration).flatMap { offset in cue.text.map { WorkoutFile.Prompt(offset: offset, text: $0) } }
            }
            return Row(kind: segment.kind, duration: segment.duration, name: segment.name,
                       targets: Targets(targets.values.filter { format == nil || carries(format!, $0.key, $0.value) }),
                       cues: cues.sorted { ($0.offset, $0.text) < ($1.offset, $1.text) })
        }
    }

    /// Exports, reads the text back, writes the Lua and loads it.
    func roundTrip(_ routine: Routine, _ format: WorkoutFormat) throws -> (Routine, dropped: [String]) {
        let (file, dropped) = try RoutineExport.workoutFile(routine, for: .icu)
        let (text, unwritten) = format == .zwo ? ZwiftWriter.text(file) : IntervalsWriter.text(file)
        let bytes = Array(text.utf8)
        let (read, warnings) = format == .zwo ? try ZwiftReader.read(bytes, file: "export.\(format)")
                                              : try IntervalsReader.read(bytes, file: "export.txt")
        XCTAssertEqual(warnings, [], "reading our own \(format) of \(routine.fileName)")
        let lua = ImportedRoutine.text(read, routineName: "back", source: "export", format: format)
        let back = try RoutineLoader.load(source: lua, fileName: "back.lua")
        XCTAssertEqual(back.name, routine.name)
        XCTAssertEqual(back.description, routine.description)
        return (back, dropped + unwritten)
    }

    func assertSameTimeline(_ routine: Routine, _ back: Routine, _ format: WorkoutFormat,
                            file: StaticString = #filePath, line: UInt = #line) {
        let want = rows(routine, through: format)
        let got = rows(back)
        XCTAssertEqual(got.count, want.count, "\(routine.fileName) through \(format)", file: file, line: line)
        for (index, (got, want)) in zip(got, want).enumerated() where got != want {
            XCTFail("\(routine.fileName) through \(format), segment \(index + 1):\n got \(got)\nwant \(want)", file: file, line: line)
        }
    }

    func testEveryFixedBundledRoutineComesBackThroughBothFormats() throws {
        let programs = packageRoot.appendingPathComponent("programs")
        let names = try FileManager.default.contentsOfDirectory(atPath: programs.path).filter { $0.hasSuffix(".lua") }.sorted()
        var fixed = 0
        for name in names {
            let routine = try RoutineLoader.load(path: programs.appendingPathComponent(name).path)
            guard !routine.timeline.isOpenEnded else {
                XCTAssertThrowsError(try RoutineExport.workoutFile(routine, for: .icu)) { error in
                    XCTAssertTrue("\(error)".contains("open-ended"), "\(error)")
                }
                continue
            }
            fixed += 1
            for format in RoundTripTests.textFormats {
                let (back, dropped) = try roundTrip(routine, format)
                assertSameTimeline(routine, back, format)
                XCTAssertFalse(dropped.contains { $0.contains("names that") }, "\(name) \(format): \(dropped)")
            }
        }
        XCTAssertEqual(fixed, 15, "the bundled routines that are not open-ended (open segments go as their expected length)")
    }

    func testTheImportedFixturesComeBackWithTheirTargets() throws {
        for name in ["over-unders", "sweet-spot", "tempo-run"] {
            let source = try String(contentsOf: interchangeFixtures.appendingPathComponent("\(name).lua"), encoding: .utf8)
            let routine = try RoutineLoader.load(source: source, fileName: "\(name).lua")
            for format in RoundTripTests.textFormats {
                let (back, dropped) = try roundTrip(routine, format)
                assertSameTimeline(routine, back, format)
                // What the format lost is said, key by key.
                let lost = Set(rows(routine).flatMap { row in
                    row.targets.ordered.filter { !carries(format, $0.key, $0.value) }.map(\.key)
                })
                for key in lost where !(format == .zwo && key == .freeride) {
                    XCTAssertTrue(dropped.contains { $0.contains(key.rawValue) }, "\(name) \(format): \(key) lost silently; \(dropped)")
                }
                XCTAssertTrue(dropped.contains { $0.contains("on_segment_start") }, "\(name) \(format): \(dropped)")
            }
        }
    }

    /// Neither format carries the countdown; an imported routine gets the default, so
    /// only another countdown is named as lost.
    func testOnlyACountdownOtherThanTheDefaultIsNamedAsLost() throws {
        for (countdown, named) in [("", false), ("countdown = 3,", false), ("countdown = 5,", true), ("countdown = 0,", true)] {
            let routine = try load("return workout { name = \"C\", \(countdown) work(30), rest(10) }")
            for format in RoundTripTests.textFormats {
                let (back, dropped) = try roundTrip(routine, format)
                XCTAssertEqual(dropped.contains { $0.hasPrefix("countdown") }, named, "\(countdown) \(format): \(dropped)")
                XCTAssertEqual(back.countdown == routine.countdown, !named, "\(countdown) \(format)")
            }
        }
    }

    /// Zwift's own shapes: a work/rest pair with power is an IntervalsT, a lone rest a
    /// SteadyState that says its kind, prompts inside the repeat count from its start.
    func testTheZwiftFileIsCompact() throws {
        let routine = try load("""
            return workout { name = "Pairs",
              warmup("5:00", { power = { low = 40, high = 70 }, ramp = true }),
              rounds(4, { segment { kind = "work", duration = 60, info = { power = 120, cadence = 100 }, cues = { [30] = "Hold" } },
                          rest(30, "Easy", { power = 50 }) }),
              rest(120, { power = 50 }),
              cooldown(300, { power = 45 }) }
            """)
        let (file, _) = try RoutineExport.workoutFile(routine, for: .icu)
        let lines = ZwiftWriter.text(file).text.split(separator: "\n").map { String($0).trimmingWhitespace() }
        XCTAssertTrue(lines.contains(#"<Warmup Duration="300" PowerLow="0.4" PowerHigh="0.7"/>"#), "\(lines)")
        XCTAssertTrue(lines.contains(#"<IntervalsT Repeat="4" OnDuration="60" OffDuration="30" OnPower="1.2" OffPower="0.5" Cadence="100" OffName="Easy">"#), "\(lines)")
        XCTAssertEqual(lines.filter { $0.hasPrefix("<textevent") }, [30, 120, 210, 300].map { #"<textevent timeoffset="\#($0)" message="Hold"/>"# })
        XCTAssertTrue(lines.contains(#"<SteadyState Duration="120" Power="0.5" Name="Rest" Kind="rest"/>"#), "\(lines)")
        XCTAssertTrue(lines.contains(#"<Cooldown Duration="300" PowerLow="0.45" PowerHigh="0.45"/>"#), "\(lines)")
    }

    func testTheIntervalsTextIsCompact() throws {
        let routine = try load("""
            return workout { name = "Pairs", description = "Four pairs",
              rounds(4, { work(60, "Hard", { power = 120 }), rest(30, { power = 50 }) }, { name = "Main set" }),
              segment { kind = "stretch", duration = 90, name = "Calves", cues = { half = "Other leg" } } }
            """)
        let (file, _) = try RoutineExport.workoutFile(routine, for: .icu)
        XCTAssertEqual(IntervalsWriter.text(file).text, """
            Pairs
            Four pairs

            Main set 4x
            - Hard 1m 120%
            - Rest 30s 50%

            - Stretch: Calves 1m30s <!> 45^Other leg

            """)
    }
    /// Found by `make fuzz-smoke`: a name holding what reads as a target out of range
    /// (`55555580%`, an error when read) made the intervals.icu line unreadable in either
    /// order; the step is then written by its kind alone, and keeps its duration.
    func testANameThatReadsAsABadTargetStillKeepsTheDuration() throws {
        for (kind, name) in [("work", "10'95 55555580% Pace5555555"), ("rest", "Easy 5w 1000000% 10m")] {
            var file = WorkoutFile()
            file.name = "Odd"
            file.parts = [.step(WorkoutFile.Step(kind: kind, name: name, duration: 600))]
            let (text, dropped) = IntervalsWriter.text(file)
            let (back, _) = try IntervalsReader.read(Array(text.utf8), file: "back.txt")
            XCTAssertEqual(back.unrolled.map(\.duration), [600], text)
            XCTAssertEqual(back.unrolled.map(\.kind), [kind], text)
            XCTAssertTrue(dropped.contains { $0.contains(name) }, "\(dropped)")
        }
    }
}
