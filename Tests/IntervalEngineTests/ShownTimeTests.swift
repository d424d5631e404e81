import Display
import IntervalEngine
import XCTest

/// The display's clock: what it shows and when it next changes.
final class ShownTimeTests: XCTestCase {
    func testWholeSecondsRoundUpAboveThreeAndTenthsBelow() {
        XCTAssertEqual(ShownTime(remaining: 65).remainingText, "1:05")
        XCTAssertEqual(ShownTime(remaining: 64.2).remainingText, "1:05")
        XCTAssertEqual(ShownTime(remaining: 9.42).remainingText, "0:10")
        XCTAssertEqual(ShownTime(remaining: 4.42).remainingText, "0:05")
        XCTAssertEqual(ShownTime(remaining: 3.01).remainingText, "0:04")
        XCTAssertEqual(ShownTime(remaining: 3).remainingText, "0:03.0")
        XCTAssertEqual(ShownTime(remaining: 2.42).remainingText, "0:02.5")
        XCTAssertEqual(ShownTime(remaining: 0.01).remainingText, "0:00.1")
        XCTAssertEqual(ShownTime(remaining: 0).remainingText, "0:00.0")
        XCTAssertEqual(ShownTime(remaining: 3723).remainingText, "1:02:03")
        XCTAssertEqual(ShownTime(remaining: 20 - 1e-9).remainingText, "0:20", "float noise does not show 0:21")
    }

    func testCountUpShowsTimeDoneMovingWithTheSameTicks() {
        XCTAssertEqual(ShownTime(remaining: 36.5).elapsedText(duration: 40), "0:03")
        XCTAssertEqual(ShownTime(remaining: 40).elapsedText(duration: 40), "0:00")
        XCTAssertEqual(ShownTime(remaining: 3.55).elapsedText(duration: 40), "0:36")
        XCTAssertEqual(ShownTime(remaining: 2.55).elapsedText(duration: 40), "0:37.4")
    }

    func testTheNextChangeIsWhenTheShownValueMoves() {
        // 20 s segment ending at 100: at 85.5 it shows 0:15, next shows 0:14 at 86.
        XCTAssertEqual(ShownTime(remaining: 14.5).nextChange(deadline: 100), 86)
        // 0:04 becomes 0:03.0 when 3 s are left.
        XCTAssertEqual(ShownTime(remaining: 3.5).nextChange(deadline: 100), 97)
        XCTAssertEqual(ShownTime(remaining: 3).nextChange(deadline: 100)!, 97.1, accuracy: 1e-9)
        XCTAssertEqual(ShownTime(remaining: 2.25).nextChange(deadline: 100)!, 97.8, accuracy: 1e-9)
        XCTAssertNil(ShownTime(remaining: 0.05).nextChange(deadline: 100), "the end timer redraws")
    }

    func testAtTheChangeMomentTheValueHasChanged() {
        // Woken exactly at nextChange, the display must see the new value, or it would
        // wake again at once for nothing.
        for remaining in stride(from: 30.0, to: 0.2, by: -0.37) {
            let shown = ShownTime(remaining: remaining)
            guard let change = shown.nextChange(deadline: 100) else { continue }
            XCTAssertNotEqual(ShownTime(remaining: 100 - change), shown, "at remaining \(remaining)")
            XCTAssertGreaterThan(change, 100 - remaining, "the change is ahead")
        }
    }
}
