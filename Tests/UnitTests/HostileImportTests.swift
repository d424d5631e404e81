import FIT
import Foundation
import XCTest
@testable import Interchange
@testable import IntervalEngine

/// Workout files made to hurt the reader: a number past what a count holds, and files
/// whose size is spent on what costs the reader most. Each is refused or read in time
/// linear in its size and memory bounded by it, never a crash.
final class HostileImportTests: XCTestCase {
    /// A FIT file's bytes around `data`: the 14-byte header and the CRC.
    static func fit(_ data: [UInt8]) -> [UInt8] {
        let size = UInt32(data.count)
        var bytes: [UInt8] = [14, 0x20, 0x54, 0x08, UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF),
                              UInt8(size >> 24), 0x2E, 0x46, 0x49, 0x54, 0, 0]
        bytes += data
        let crc = FITEncoder.crc(bytes[0...])
        return bytes + [UInt8(crc & 0xFF), UInt8(crc >> 8)]
    }

    /// A definition of local message `local` as global `global`, little-endian, with
    /// fields (number, size, base type).
    static func define(_ local: UInt8, _ global: UInt16, _ fields: [(UInt8, UInt8, UInt8)]) -> [UInt8] {
        [0x40 | local, 0, 0, UInt8(global & 0xFF), UInt8(global >> 8), UInt8(fields.count)] + fields.flatMap { [$0.0, $0.1, $0.2] }
    }

    static func little(_ value: UInt64, _ size: Int) -> [UInt8] { (0..<size).map { UInt8(value >> UInt64(8 * $0) & 0xFF) } }

    static let fileID = define(0, 0, [(0, 1, 0x00)]) + [0, 5]

    /// A repeat count in a 64-bit field (base type uint64) of 2^63+5 trapped converting it
    /// to Int ("Not enough bits"); so would a message index or a step pointed back to.
    func testA64BitRepeatCountIsRefusedNotATrap() {
        let step = Self.define(1, 27, [(254, 8, 0x8F), (1, 1, 0x00), (2, 8, 0x8F), (4, 8, 0x8F)])
        let huge = (UInt64(1) << 63) + 5
        for (count, back, index) in [(huge, UInt64(0), UInt64(1)), (3, huge, 1), (3, 0, huge)] {
            let data = Self.fileID + step
                + [1] + Self.little(0, 8) + [0] + Self.little(30_000, 8) + Self.little(UInt64.max, 8)
                + [1] + Self.little(index, 8) + [6] + Self.little(back, 8) + Self.little(count, 8)
            XCTAssertThrowsError(try FITWorkoutReader.read(Self.fit(data), file: "huge.fit")) { error in
                XCTAssertTrue("\(error)".hasPrefix("huge.fit: step 2 "), "\(error)")
            }
        }
    }

    /// Peak resident memory of this process, in bytes.
    static var peakMemory: Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }

    /// Two million steps of one byte each (a definition with no fields, then its header
    /// byte again and again) are refused at the first step past what a FIT workout numbers
    /// (a 16-bit message_index), in a moment, not after reading every one into memory
    /// (4.4 s and 690 MB).
    func testTwoMillionOneByteStepsAreRefusedAtOnce() {
        let data = Self.fileID + Self.define(1, 27, []) + [UInt8](repeating: 1, count: 2_000_000)
        let file = Self.fit(data)
        let before = Self.peakMemory
        XCTAssertThrowsError(try FITWorkoutReader.read(file, file: "many.fit")) { error in
            XCTAssertEqual("\(error)", "many.fit: the FIT workout has more than 65535 steps, more than a FIT workout numbers")
        }
        // Memory, not seconds, shows the file was not read whole (a wall-clock bound failed
        // under AddressSanitizer on a busy machine: 1.2 s; the time is BENCHMARKS.md's).
        XCTAssertLessThan(Self.peakMemory - before, 64 << 20)
    }

    /// Nested repeats that write the same large block out again and again: step, a repeat
    /// of it 10,000 times, then repeats of one time each, each unrolling the 10,000 steps
    /// anew, are refused once the written-out steps pass what a routine holds.
    func testNestedRepeatsWrittenOutAgainAndAgainAreBounded() {
        let step = Self.define(1, 27, [(254, 2, 0x84), (1, 1, 0x00), (2, 4, 0x86), (4, 4, 0x86)])
        var data = Self.fileID + step + [1] + Self.little(0, 2) + [0] + Self.little(30_000, 4) + Self.little(0xFFFF_FFFF, 4)
        for index in 1..<20_000 {
            data += [1] + Self.little(UInt64(index), 2) + [6] + Self.little(0, 4) + Self.little(index == 1 ? 10_000 : 1, 4)
        }
        XCTAssertThrowsError(try FITWorkoutReader.read(Self.fit(data), file: "nested.fit")) { error in
            XCTAssertTrue("\(error)".contains("written out"), "\(error)")
        }
    }

    /// An `.erg` of a megabyte: 30,000 steps and 60,000 course texts. Each text was placed
    /// by a search of every step (steps × texts: minutes); now it takes a search of the
    /// steps' starts in order.
    func testAnErgOfManyTextsIsReadInTimeLinearInItsSize() throws {
        var text = "[COURSE HEADER]\nMINUTES WATTS\n[END COURSE HEADER]\n[COURSE DATA]\n"
        for point in 0...30_000 { text += "\(point) \(100 + point % 2)\n" }
        text += "[END COURSE DATA]\n[COURSE TEXT]\n"
        for second in 0..<60_000 { text += "\(second * 30)\tgo\n" }
        text += "[END COURSE TEXT]\n"
        let start = Date()
        let (workout, _) = try CourseReader.read(Array(text.utf8), file: "big.erg")
        XCTAssertLessThan(Date().timeIntervalSince(start), 4)
        XCTAssertEqual(workout.parts.count, 30_000)
        guard case .step(let first)? = workout.parts.first else { return XCTFail() }
        XCTAssertEqual(first.name, "go")
        XCTAssertEqual(first.prompts.map(\.text), ["go"])
    }
}
