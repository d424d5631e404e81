import Display
import WorkoutValues
import TestSupport
import XCTest
@testable import IntervalEngine

/// An open-ended workout on screen: no total, no "last segment" for a segment not made
/// yet, the time done instead of the time left.
extension ScreenLayoutTests {
    func openEnded() -> DisplayState {
        DisplayState(routine: "AMRAP", name: "Round 3", kind: "work", index: 5, count: nil,
                     clock: ShownTime(remaining: 125, tenths: false), duration: 300, workoutDone: 700, workoutLeft: nil)
    }

    func testAnOpenEndedWorkoutShowsWhatIsKnown() {
        let lines = text(ScreenLayout.lines(openEnded(), size: ScreenSize(columns: 60, rows: 16), glyphs: .unicode))
        XCTAssertTrue(lines[0].hasSuffix("5/… "), lines[0])
        XCTAssertFalse(lines.contains { $0.contains("last segment") }, lines.joined(separator: "\n"))
        XCTAssertFalse(lines.contains { $0.contains("left") }, lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains { $0.trimmingCharacters(in: .whitespaces) == "11:40 done · open-ended" },
                      lines.joined(separator: "\n"))
        let ascii = text(ScreenLayout.lines(openEnded(), size: ScreenSize(columns: 60, rows: 16), glyphs: .ascii))
        XCTAssertTrue(ascii[0].hasSuffix("5/... "), ascii[0])
        let status = StatusLine.line(openEnded(), width: 80, glyphs: .unicode).text
        XCTAssertEqual(status, "WORK  Round 3  2:05")
    }

    func testTheDisplayStateOfARunningOpenEndedSession() throws {
        let routine = try load("""
            return workout { name = "Open", generate(function()
              coroutine.yield(work(10, "A"))
              coroutine.yield(work(10, "B"))
            end), cooldown(5, "Last") }
            """)
        let clock = VirtualClock()
        let session = Session(routine: routine, scheduler: clock, options: SessionOptions(bell: false))
        session.start()
        var state = DisplayState(session.snapshot(), countUp: false, message: nil, help: false)
        XCTAssertNil(state.count)
        XCTAssertNil(state.next, "B is not made yet")
        XCTAssertNil(state.workoutLeft)
        clock.advance(by: 12)
        state = DisplayState(session.snapshot(), countUp: false, message: nil, help: false)
        XCTAssertEqual(state.name, "B")
        XCTAssertNil(state.count, "the generator has not ended yet")
        clock.advance(by: 10)
        state = DisplayState(session.snapshot(), countUp: false, message: nil, help: false)
        XCTAssertEqual(state.name, "Last")
        XCTAssertEqual(state.count, 3, "once the generator has ended the total is known")
        XCTAssertEqual(state.workoutLeft, 3, "at 22 s: 3 s of the cool-down left")
    }
}
