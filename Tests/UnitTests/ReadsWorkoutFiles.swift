import XCTest
@testable import Interchange
@testable import IntervalEngine

/// The error a Zwift file or intervals.icu text is refused with (nil: it reads), for the
/// tests of bad input.
protocol ReadsWorkoutFiles {}

extension ReadsWorkoutFiles {
    func zwoError(_ text: String) -> String? {
        do {
            _ = try ZwiftReader.read(Array(text.utf8), file: "bad.zwo")
            return nil
        } catch {
            return error.description
        }
    }

    func icuError(_ text: String) -> String? {
        do {
            _ = try IntervalsReader.read(Array(text.utf8), file: "bad.txt")
            return nil
        } catch {
            return error.description
        }
    }
}
