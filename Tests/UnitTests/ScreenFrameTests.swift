import Display
import TestSupport
import XCTest
@testable import IntervalEngine

/// A tick lays out only the rows that move; the result must always be the full layout.
final class ScreenFrameTests: XCTestCase {
    func testUpdatingAFrameGivesTheFullLayoutEveryTime() throws {
        let harness = try Harness("""
            return workout { name = "Frames", work(12, "Squats", { tip = "sit back" }), rounds(2, { rest(3.5, "Breathe") }),
              work("1:00:05", "Long", { reps = 5 }) }
            """)
        harness.session.start()
        for size in [ScreenSize(columns: 80, rows: 24), ScreenSize(columns: 40, rows: 12), ScreenSize(columns: 30, rows: 5),
                     ScreenSize(columns: 200, rows: 60)] {
            var frame: ScreenFrame?
            var message: DisplayMessage?
            var changes = 0
            // The largest screen is slow to lay out whole in a debug build: fewer steps.
            for step in 0..<(size.rows > 30 ? 130 : 400) {
                if step == 50 { harness.session.pause() }
                if step == 53 { harness.session.resume() }
                if step == 120 { message = DisplayMessage("Halfway", .cue) }
                // The band comes and goes with the pause; a flash lasts two tenths every 0.7 s.
                let state = DisplayState(harness.session.snapshot(), countUp: step > 300, message: message,
                                         help: step == 200, band: true, flash: step % 7 < 2)
                let fresh = ScreenLayout.lines(state, size: size, glyphs: .unicode)
                let updated = frame?.updated(to: state) ?? ScreenFrame(state, size: size, glyphs: .unicode)
                if let frame, frame.lines != updated.lines, frame.state.name == state.name { changes += 1 }
                XCTAssertEqual(updated.lines, fresh, "step \(step) at \(size)")
                if let frame, let relaid = updated.relaid {
                    // The display compares only the re-laid rows with the screen.
                    for row in updated.lines.indices where !relaid.contains(row) {
                        XCTAssertEqual(updated.lines[row], frame.lines[row], "row \(row), step \(step) at \(size)")
                    }
                }
                frame = updated
                harness.clock.advance(by: 0.1)
            }
            XCTAssertGreaterThan(changes, 20, "the clock moved the frame")
        }
    }

    /// A row is rewritten from its first change on; the column must be where that
    /// change starts on screen.
    func testARowChangesFromItsFirstDifferentSpan() {
        let old = Line([Span("   "), Span("███", "1;31"), Span(" "), Span("█ █", "1;31")])
        XCTAssertNil(old.change(from: old))
        let last = Line([Span("   "), Span("███", "1;31"), Span(" "), Span("███", "1;31")])
        XCTAssertEqual(last.change(from: old)?.span, 3)
        XCTAssertEqual(last.change(from: old)?.column, 7)
        let recoloured = Line([Span("   "), Span("███", "2"), Span(" "), Span("█ █", "1;31")])
        XCTAssertEqual(recoloured.change(from: old)?.span, 1)
        XCTAssertEqual(recoloured.change(from: old)?.column, 3)
        let shorter = Line([Span("   "), Span("███", "1;31")])
        XCTAssertEqual(shorter.change(from: old)?.span, 2, "only the erase is left to write")
        XCTAssertEqual(shorter.change(from: old)?.column, 6)
        let longer = Line(old.spans + [Span("!")])
        XCTAssertEqual(longer.change(from: old)?.span, 4)
        XCTAssertEqual(longer.change(from: old)?.column, 10)
        var rendered: [UInt8] = []
        last.render(into: &rendered, color: true, from: 3)
        XCTAssertEqual(String(decoding: rendered, as: UTF8.self), "\u{1B}[1;31m███\u{1B}[0m")
        XCTAssertNil(last.change(from: old)?.end, "the last span changed: write to the end")
        XCTAssertNil(shorter.change(from: old)?.end)
    }

    /// A glyph in the middle of a band row changes; the band after it is on screen already.
    func testOnlyTheChangedMiddleOfARowIsWritten() {
        let old = Line([Span("    ", "41"), Span("█▀█", "1;97;41"), Span(" ", "41"), Span("█ █", "1;97;41"), Span("      ", "41")])
        let new = Line([Span("    ", "41"), Span("█▀█", "1;97;41"), Span(" ", "41"), Span("▀▀█", "1;97;41"), Span("      ", "41")])
        let change = try! XCTUnwrap(new.change(from: old))
        XCTAssertEqual(change.span, 3)
        XCTAssertEqual(change.column, 8)
        XCTAssertEqual(change.end, 4, "the band after the glyph stays")
        var rendered: [UInt8] = []
        new.render(into: &rendered, color: true, from: change.span, to: change.end)
        XCTAssertEqual(String(decoding: rendered, as: UTF8.self), "\u{1B}[1;97;41m▀▀█\u{1B}[0m")
        // A changed part of another width moves what follows: write to the end.
        let wider = Line([Span("    ", "41"), Span("█▀█", "1;97;41"), Span(" ", "41"), Span("█", "1;97;41"), Span("      ", "41")])
        XCTAssertNil(wider.change(from: old)?.end)
        // So does a wide character, whose columns are not known.
        let wide = Line([Span("    ", "41"), Span("█▀█", "1;97;41"), Span(" ", "41"), Span("運", "1;97;41"), Span("      ", "41")])
        XCTAssertNil(wide.change(from: old)?.end)
    }

    func testAWideCharacterBeforeTheChangeRedrawsTheWholeRow() {
        let old = Line([Span(" 運動 "), Span("0:05")])
        let new = Line([Span(" 運動 "), Span("0:04")])
        XCTAssertEqual(new.change(from: old)?.span, 0, "the column of 運動's end is not known")
        XCTAssertEqual(new.change(from: old)?.column, 0)
        let combining = Line([Span("e\u{301} "), Span("1")])
        XCTAssertEqual(combining.change(from: Line([Span("e\u{301} "), Span("2")]))?.span, 0)
        let latin = Line([Span("Café · "), Span("1")])
        XCTAssertEqual(latin.change(from: Line([Span("Café · "), Span("2")]))?.column, 7)
    }

    func testEqualTextIsEqualWhateverItsStorage() {
        let shared = String(repeating: "█", count: 9)
        let copy = String(decoding: Array(shared.utf8), as: UTF8.self)
        XCTAssertEqual(Span(shared, "1"), Span(copy, "1"))
        XCTAssertNotEqual(Span(shared, "1"), Span(copy, "2"))
        XCTAssertNotEqual(Span(shared), Span(String(repeating: "█", count: 8) + "▉"))
        // Canonically equivalent but different bytes: the terminal would get other bytes.
        XCTAssertNotEqual(Span("\u{E9}"), Span("e\u{301}"))
    }
}
