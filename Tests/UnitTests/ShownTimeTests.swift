import Display
import IntervalEngine
import WorkoutValues
import XCTest

/// The display's clock: what it shows and when it next changes, with whole seconds
/// throughout (the default) and with `--tenths`.
final class ShownTimeTests: XCTestCase {
    /// Remaining seconds, then the clock in whole seconds (the default) and with `--tenths`
    /// (nil: not checked in that mode).
    static let shown: [(remaining: Double, whole: String?, tenths: String?)] = [
        (65, "1:05", nil), (64.2, "1:05", nil), (9.42, nil, "0:10"), (4.42, nil, "0:05"),
        (3.01, "0:04", "0:04"), (3, "0:03", "0:03.0"), (2.42, "0:03", "0:02.5"), (0.01, "0:01", "0:00.1"),
        (0, "0:00", "0:00.0"), (3723, "1:02:03", "1:02:03"),
    ]

    func testWholeSecondsToTheEndAndWithTenthsBelowThree() {
        for (remaining, whole, tenths) in Self.shown {
            if let whole { XCTAssertEqual(ShownTime(remaining: remaining, tenths: false).remainingText, whole) }
            if let tenths { XCTAssertEqual(ShownTime(remaining: remaining, tenths: true).remainingText, tenths) }
        }
        XCTAssertEqual(ShownTime(remaining: 20 - 1e-9, tenths: false).remainingText, "0:20",
                       "float noise does not show 0:21")
        XCTAssertFalse(ShownTime(remaining: 1.5, tenths: false).showsTenths)
    }

    func testCountUpShowsTimeDoneMovingWithTheSameTicks() {
        XCTAssertEqual(ShownTime(remaining: 36.5, tenths: false).elapsedText(duration: 40), "0:03")
        XCTAssertEqual(ShownTime(remaining: 40, tenths: false).elapsedText(duration: 40), "0:00")
        XCTAssertEqual(ShownTime(remaining: 2.55, tenths: false).elapsedText(duration: 40), "0:37")
        XCTAssertEqual(ShownTime(remaining: 3.55, tenths: true).elapsedText(duration: 40), "0:36")
        XCTAssertEqual(ShownTime(remaining: 2.55, tenths: true).elapsedText(duration: 40), "0:37.4")
    }

    func testTheNextChangeIsWhenTheShownValueMoves() {
        // 20 s segment ending at 100: at 85.5 it shows 0:15, next shows 0:14 at 86.
        XCTAssertEqual(ShownTime(remaining: 14.5, tenths: false).nextChange(deadline: 100), 86)
        // Whole seconds to the end: 0:03 becomes 0:02 at 98, 0:01 is the last change before it.
        XCTAssertEqual(ShownTime(remaining: 2.25, tenths: false).nextChange(deadline: 100), 98)
        XCTAssertNil(ShownTime(remaining: 0.5, tenths: false).nextChange(deadline: 100), "the end timer redraws")
        // With tenths, 0:04 becomes 0:03.0 when 3 s are left, then a change each tenth.
        XCTAssertEqual(ShownTime(remaining: 3.5, tenths: true).nextChange(deadline: 100), 97)
        XCTAssertEqual(ShownTime(remaining: 3, tenths: true).nextChange(deadline: 100)!, 97.1, accuracy: 1e-9)
        XCTAssertEqual(ShownTime(remaining: 2.25, tenths: true).nextChange(deadline: 100)!, 97.8, accuracy: 1e-9)
        XCTAssertNil(ShownTime(remaining: 0.05, tenths: true).nextChange(deadline: 100), "the end timer redraws")
    }

    func testAtTheChangeMomentTheValueHasChanged() {
        // Woken exactly at nextChange, the display must see the new value, or it would
        // wake again at once for nothing.
        for tenths in [false, true] {
            var changes = 0
            for remaining in stride(from: 30.0, to: 0.2, by: -0.37) {
                let shown = ShownTime(remaining: remaining, tenths: tenths)
                guard let change = shown.nextChange(deadline: 100) else { continue }
                changes += 1
                XCTAssertNotEqual(ShownTime(remaining: 100 - change, tenths: tenths), shown, "at remaining \(remaining)")
                XCTAssertGreaterThan(change, 100 - remaining, "the change is ahead")
                XCTAssertLessThanOrEqual(change - (100 - remaining), tenths && remaining <= 3 ? 0.1 + 1e-9 : 1 + 1e-9,
                                         "no shown value is skipped")
            }
            XCTAssertGreaterThan(changes, 70)
        }
    }
}
