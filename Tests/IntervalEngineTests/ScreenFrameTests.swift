import Display
import XCTest
@testable import IntervalEngine

/// A tick lays out only the rows that move; the result must always be the full layout.
final class ScreenFrameTests: XCTestCase {
    func testUpdatingAFrameGivesTheFullLayoutEveryTime() throws {
        let harness = try Harness("""
            return workout { name = "Frames", work(12, "Squats"), rounds(2, { rest(3.5, "Breathe") }), work("1:00:05", "Long") }
            """)
        harness.session.start()
        for size in [ScreenSize(columns: 80, rows: 24), ScreenSize(columns: 40, rows: 12), ScreenSize(columns: 30, rows: 5)] {
            var frame: ScreenFrame?
            var message: DisplayMessage?
            var changes = 0
            for step in 0..<400 {
                if step == 50 { harness.session.pause() }
                if step == 53 { harness.session.resume() }
                if step == 120 { message = DisplayMessage("Halfway", .cue) }
                let state = DisplayState(session: harness.session, countUp: step > 300, message: message, help: step == 200)
                let fresh = ScreenLayout.lines(state, size: size, glyphs: .unicode)
                let updated = frame?.updated(to: state) ?? ScreenFrame(state, size: size, glyphs: .unicode)
                if let frame, frame.lines != updated.lines, frame.state.name == state.name { changes += 1 }
                XCTAssertEqual(updated.lines, fresh, "step \(step) at \(size)")
                frame = updated
                harness.clock.advance(by: 0.1)
            }
            XCTAssertGreaterThan(changes, 20, "the clock moved the frame")
        }
    }
}
