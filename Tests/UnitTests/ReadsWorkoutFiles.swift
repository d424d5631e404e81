import XCTest
@testable import Interchange
@testable import IntervalEngine

/// The error a Zwift file or intervals.icu text is refused with (nil: it reads), for the
/// tests of bad input.
protocol ReadsWorkoutFiles {}

extension ReadsWorkoutFiles {
    func zwoError(_ text: String) -> String? { refusal(of: text, as: .zwo, file: "bad.zwo") }

    func icuError(_ text: String) -> String? { refusal(of: text, as: .icu, file: "bad.txt") }

    private func refusal(of text: String, as format: WorkoutFormat, file: String) -> String? {
        do {
            _ = try format.codec.read(Array(text.utf8), file: file)
            return nil
        } catch {
            return error.description
        }
    }
}
