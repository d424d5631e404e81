import FIT
import Foundation
import WorkoutValues
import XCTest
@testable import Interchange
@testable import IntervalEngine
@testable import LuaBridge

/// The FIT workout writer and reader without the binary: the bytes of one workout pinned
/// by a golden file, every cut and damaged copy of a file refused or read (never a crash),
/// and files shaped as other tools write them (nested repeats, a distance step).
final class FITWorkoutFileTests: XCTestCase {
    private func exported(_ path: String) throws -> [UInt8] {
        let routine = try RoutineLoader.load(path: path)
        let (file, _) = try RoutineExport.workoutFile(routine, for: .fit)
        return FITWorkoutWriter.bytes(file).bytes
    }

    /// The bytes of the targets fixture as export writes them; a change to the writer that
    /// changes them must mean to (regenerate with `workout export … --format fit -o`).
    func testTheGoldenFileHoldsTheSameBytes() throws {
        let golden = [UInt8](try Data(contentsOf: interchangeFixtures.appendingPathComponent("targets.fit")))
        XCTAssertEqual(try exported(interchangeFixtures.appendingPathComponent("targets.lua").path), golden)
    }

    /// Every prefix is refused; every byte changed (the CRC made right again, so the
    /// messages themselves are damaged) is read or refused with a message, never a crash.
    func testEveryCutAndEveryChangedByteIsReadOrRefused() throws {
        let bytes = try exported(interchangeFixtures.appendingPathComponent("targets.lua").path)
        for length in 0..<bytes.count {
            XCTAssertThrowsError(try FITWorkoutReader.read(Array(bytes.prefix(length)), file: "cut.fit"), "\(length) bytes")
        }
        var read = 0
        var refused = 0
        for position in 0..<(bytes.count - 2) {
            for change: UInt8 in [0x01, 0x80, 0xFF] {
                var damaged = bytes
                damaged[position] ^= change
                let end = damaged.count - 2
                let crc = FITEncoder.crc(damaged[0..<end])
                damaged[end] = UInt8(crc & 0xFF)
                damaged[end + 1] = UInt8(crc >> 8)
                do {
                    _ = try FITWorkoutReader.read(damaged, file: "damaged.fit")
                    read += 1
                } catch {
                    XCTAssertTrue(error.description.hasPrefix("damaged.fit: "), error.description)
                    refused += 1
                }
            }
        }
        XCTAssertGreaterThan(read, 0)
        XCTAssertGreaterThan(refused, 0)
    }

    /// A workout as another tool may write it: steps A and B, B repeated twice, all of it
    /// three times (a repeat inside a repeat), then a step ended by distance (type 1, in
    /// centimetres) or by calories (type 4).
    private func otherToolsFile(distance: Bool, endedBy type: UInt64 = 1) -> [UInt8] {
        var fit = FITEncoder()
        fit.define(local: 0, global: 0, [.init(0, .enumeration)])
        fit.message(local: 0, [.number(5)])
        fit.define(local: 1, global: 27, [.init(254, .uint16), .init(0, .string, size: 8), .init(1, .enumeration),
                                          .init(2, .uint32), .init(4, .uint32), .init(7, .enumeration)])
        fit.message(local: 1, [.number(0), .text("A"), .number(0), .number(30_000), .none, .number(0)])
        fit.message(local: 1, [.number(1), .text("B"), .number(0), .number(15_500), .none, .number(1)])
        fit.message(local: 1, [.number(2), .none, .number(6), .number(1), .number(2), .none])
        fit.message(local: 1, [.number(3), .text("Set"), .number(6), .number(0), .number(3), .none])
        if distance { fit.message(local: 1, [.number(4), .text("Run"), .number(type), .number(100_000), .none, .number(0)]) }
        return fit.finished()
    }

    func testARepeatInsideARepeatIsWrittenOut() throws {
        let (workout, warnings) = try FITWorkoutReader.read(otherToolsFile(distance: false), file: "nested.fit")
        XCTAssertEqual(warnings, ["nested.fit: step 4: a repeat inside a repeat, written out 2 times in the outer one"])
        let a = WorkoutFile.Step(kind: "work", name: "A", duration: 30, line: 1)
        let b = WorkoutFile.Step(kind: "rest", name: "B", duration: 15.5, line: 2)
        XCTAssertEqual(workout.parts, [.repeats(count: 3, name: "Set", steps: [a, b, b])])
        XCTAssertNil(workout.name)
    }

    func testAStepEndedByDistanceIsADistanceStepAndByCaloriesRefused() throws {
        let (workout, _) = try FITWorkoutReader.read(otherToolsFile(distance: true), file: "run.fit")
        XCTAssertEqual(workout.unrolled.last?.distance, 1_000)
        XCTAssertEqual(workout.unrolled.last?.duration, 360, "a kilometre at an easy 6:00/km")
        XCTAssertThrowsError(try FITWorkoutReader.read(otherToolsFile(distance: true, endedBy: 4), file: "run.fit")) { error in
            XCTAssertEqual("\(error)", "run.fit: step 5 ends by calories (duration type 4), not by time, distance or the lap "
                           + "button: a timer cannot follow it")
        }
    }

    /// 0 W would be 1000 with the profile's offset, which FIT reads as 1000 % of FTP.
    func testWattsAndBpmUnderOneAreWrittenAsOneAndSaid() throws {
        var workout = WorkoutFile()
        workout.parts = [.step(WorkoutFile.Step(kind: "work", name: "Z", duration: 60, targets: Targets([.watts: .number(0)]))),
                         .step(WorkoutFile.Step(kind: "rest", name: "R", duration: 30,
                                                targets: Targets([.bpm: .range(low: 0, high: 120)])))]
        let (bytes, dropped) = FITWorkoutWriter.bytes(workout)
        XCTAssertEqual(dropped, ["bpm under 1 (FIT reads them as percent; written as 1) (1 step)",
                                 "watts under 1 (FIT reads them as percent; written as 1) (1 step)"])
        let (read, _) = try FITWorkoutReader.read(bytes, file: "z.fit")
        XCTAssertEqual(read.unrolled.map(\.targets), [Targets([.watts: .number(1)]), Targets([.bpm: .range(low: 1, high: 120)])])
    }
}
