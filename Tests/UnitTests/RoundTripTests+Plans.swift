import Foundation
import WorkoutValues
import XCTest
@testable import Interchange
@testable import IntervalEngine
@testable import LuaBridge

/// The property behind `workout export` and `workout import`: every plan export accepts
/// comes back from import as the same plan, in both formats — kinds, names, durations,
/// targets and text cues — except what export said it left out. Plans are generated
/// from a fixed seed (so a failure repeats), with values across each field's whole range
/// and now and then one outside it, which export must refuse.
extension RoundTripTests {
    /// SplitMix64: small, and the same sequence on every machine.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    struct PlanMaker {
        var random: Seeded
        /// Whether the plan holds a value outside its field's range.
        var outOfRange = false

        mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

        mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }

        /// In `step` steps from `low` to `high`: the precision the formats carry.
        mutating func number(_ low: Double, _ high: Double, step: Double) -> Double {
            let steps = Int(((high - low) / step).rounded(.down))
            return Number.rounded(low + Double(Int.random(in: 0...steps, using: &random)) * step, places: 6)
        }

        mutating func amount(_ key: Targets.Key, ramp: Bool) -> String {
            let (range, _) = WorkoutFileRules.range(key)!
            let step = key == .power || key == .pace ? 0.01 : 1
            if chance(2) {
                outOfRange = true
                return Number.format(pick([-1, range.upperBound + step, -range.upperBound]))
            }
            let low = number(range.lowerBound, range.upperBound, step: step)
            guard ramp || chance(30) else { return Number.format(low) }
            var high = number(range.lowerBound, range.upperBound, step: step)
            if high == low { high = low == range.upperBound ? range.lowerBound : range.upperBound }
            return "{ low = \(Number.format(low)), high = \(Number.format(high)) }"
        }

        mutating func info() -> String? {
            guard chance(80) else { return nil }
            var fields: [String] = []
            if chance(5) { fields.append("max_effort = true") }
            if chance(5) { fields.append("freeride = true") }
            let ramp = chance(20)
            for key in [Targets.Key.power, .watts, .hr, .lthr, .cadence] where chance(key == .power ? 60 : 15) {
                fields.append("\(key.rawValue) = \(amount(key, ramp: ramp && key != .cadence))")
            }
            if chance(15) { fields.append("pace = " + (chance(50) ? amount(.pace, ramp: false) : "\"\(pick(["5:00/km", "4:30/km", "1:45/100m"]))\"")) }
            if chance(10) { fields.append("zone = \"\(pick(["Z1", "Z2", "Z3-Z4"]))\"") }
            if chance(5) { fields.append("hr_zone = \"\(pick(["Z2", "Z4"]))\"") }
            if chance(5) { fields.append("pace_zone = \"\(pick(["Z3", "Z1-Z2"]))\"") }
            if chance(5) { fields.append("mmp = \"\(pick(["60% MMP 5m", "95% MMP 20m", "110% MMP"]))\"") }
            if ramp, fields.contains(where: { $0.contains("low =") && !$0.hasPrefix("cadence") }) { fields.append("ramp = true") }
            return fields.isEmpty ? nil : "{ " + fields.joined(separator: ", ") + " }"
        }

        mutating func duration() -> Double {
            if chance(2) {
                outOfRange = true
                return pick([0.0005, 0.0001])
            }
            return pick([
                number(Duration.minimum, 2, step: 0.001), number(1, 600, step: 1), number(1, 3600, step: 0.5),
                number(60, Duration.maximum, step: 1),
            ])
        }

        mutating func step() -> String {
            let kind = pick(["warmup", "work", "work", "rest", "cooldown", "prep", "stretch"])
            let duration = duration()
            var fields = ["kind = \"\(kind)\"", "duration = \(Number.format(duration))"]
            let name = pick(["", "", "Hard", "Easy spin", "Over", "Under", "Calves", "Get ready", "Hold 30s", "Last one"])
            if !name.isEmpty { fields.append("name = \"\(name)\"") }
            if let info = info() { fields.append("info = \(info)") }
            // One text a second: a routine's cues table holds one value for each key.
            var offsets = Set<Double>()
            var cues: [String] = []
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                let whole = duration.rounded(.down)
                guard whole >= 2 else { break }
                let from = pick([0, 1, 2])
                let seconds = from == 2 ? (duration / 2) : number(1, whole - 1, step: 1)
                let offset = from == 1 ? duration - seconds : seconds
                guard offset.rounded() == offset || from == 2, offsets.insert(offset).inserted else { continue }
                let key = from == 2 ? "half" : from == 1 ? "[-\(Number.format(seconds))]" : "[\(Number.format(seconds))]"
                if cues.contains(where: { $0.hasPrefix(key + " ") }) { continue }
                cues.append("\(key) = \"\(pick(["Halfway", "Push", "Breathe", "Two to go"]))\"")
            }
            if !cues.isEmpty { fields.append("cues = { " + cues.joined(separator: ", ") + " }") }
            return "segment { " + fields.joined(separator: ", ") + " }"
        }

        mutating func routine() -> String {
            var parts: [String] = []
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                if chance(30) {
                    let steps = (0..<Int.random(in: 1...3, using: &random)).map { _ in step() }
                    let name = chance(50) ? ", { name = \"\(pick(["Main set", "Block"]))\" }" : ""
                    parts.append("rounds(\(Int.random(in: 2...5, using: &random)), { \(steps.joined(separator: ", ")) }\(name))")
                } else {
                    parts.append(step())
                }
            }
            return "return workout { name = \"Plan\",\n" + parts.joined(separator: ",\n") + "\n}\n"
        }
    }

    /// The keys export named as left out, which cannot come back.
    func lost(_ dropped: [String]) -> Set<Targets.Key> {
        Set(Targets.Key.allCases.filter { key in
            dropped.contains { $0.contains(" \(key.rawValue) (") || $0.contains(": \(key.rawValue) (") || $0.hasPrefix("\(key.rawValue) (") }
        })
    }

    func testEveryGeneratedPlanExportAcceptsComesBackTheSame() throws {
        var maker = PlanMaker(random: Seeded(state: 32))
        var accepted = 0
        var refused = 0
        for index in 0..<400 {
            maker.outOfRange = false
            let source = maker.routine()
            let routine: Routine
            do {
                routine = try RoutineLoader.load(source: source, fileName: "plan\(index).lua")
            } catch {
                // A segment under a millisecond does not load: nothing to export.
                XCTAssertTrue(maker.outOfRange, "plan \(index) does not load: \(error.message)\n\(source)")
                XCTAssertTrue(error.message.contains("at least 0.001 seconds"), error.message)
                continue
            }
            let (file, dropped) = try RoutineExport.workoutFile(routine, for: .icu)
            let problems = WorkoutFileRules.problems(file)
            XCTAssertEqual(!problems.isEmpty, maker.outOfRange, "plan \(index): \(problems)\n\(source)")
            for format in RoundTripTests.textFormats {
                let (text, unwritten) = format == .zwo ? ZwiftWriter.text(file) : IntervalsWriter.text(file)
                // Export refuses it (the command says why); nothing to read back.
                guard problems.isEmpty else { continue }
                let bytes = Array(text.utf8)
                let (read, warnings) = format == .zwo ? try ZwiftReader.read(bytes, file: "p.zwo")
                                                      : try IntervalsReader.read(bytes, file: "p.txt")
                XCTAssertEqual(warnings, [], "plan \(index) \(format)")
                let lua = ImportedRoutine.text(read, routineName: "back", source: "p", format: format)
                let back = try RoutineLoader.load(source: lua, fileName: "back.lua")
                let notes = dropped + unwritten
                // A free ride is Zwift's FreeRide element, which reads back as no target.
                let gone = lost(notes).union(format == .zwo ? [.freeride] : [])
                let namesLost = notes.contains { $0.hasPrefix("names that") }
                // A key the format left out in one step may come back in others: the notes
                // count steps, not which; such keys are not compared.
                func without(_ rows: [Row]) -> [Row] {
                    rows.map { row in
                        var row = row
                        row.targets = Targets(row.targets.values.filter { !gone.contains($0.key) })
                        return row
                    }
                }
                let want = without(rows(routine))
                let got = without(rows(back))
                XCTAssertEqual(got.count, want.count, "plan \(index) through \(format)\n\(source)\n\(text)")
                for (segment, (got, want)) in zip(got, want).enumerated() {
                    var got = got
                    if namesLost { got.name = want.name }
                    if got != want {
                        XCTFail("plan \(index) through \(format), segment \(segment + 1):\n got \(got)\nwant \(want)\n\(source)\n\(text)")
                        break
                    }
                }
            }
            if problems.isEmpty { accepted += 1 } else { refused += 1 }
        }
        XCTAssertGreaterThan(accepted, 200, "plans export accepts")
        XCTAssertGreaterThan(refused, 5, "plans export refuses")
    }
}
