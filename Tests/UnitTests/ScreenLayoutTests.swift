@testable import Display
import WorkoutValues
import TestSupport
import XCTest
@testable import IntervalEngine

/// The display's layout as plain lines for given sizes and states: no terminal needed.
final class ScreenLayoutTests: XCTestCase {
    func state(remaining: Double = 35, paused: Bool = false, help: Bool = false, countUp: Bool = false,
               message: DisplayMessage? = nil, info: String? = nil, band: Bool = false,
               flash: Bool = false, tenths: Bool = false) -> DisplayState {
        DisplayState(routine: "HIIT", name: "Burpees", kind: "work", index: 3, count: 12,
                     clock: ShownTime(remaining: remaining, tenths: tenths), duration: 40, countUp: countUp, round: 2, rounds: 8,
                     block: "Main", info: info, next: .init(name: "Rest", kind: "rest", duration: 20),
                     workoutDone: 95, workoutLeft: 505, message: message, paused: paused, help: help,
                     band: band, flash: flash)
    }

    func text(_ lines: [Line]) -> [String] { lines.map(\.text) }

    func testEverySizeFromTheSmallestFitsExactly() {
        for size in [ScreenSize(columns: 40, rows: 12), ScreenSize(columns: 80, rows: 24),
                     ScreenSize(columns: 200, rows: 60), ScreenSize(columns: 41, rows: 30),
                     ScreenSize(columns: 120, rows: 13)] {
            for variant in [state(), state(remaining: 4.3, paused: true, message: DisplayMessage(
                String(repeating: "long message ", count: 30), .log)), state(help: true)] {
                let lines = ScreenLayout.lines(variant, size: size, glyphs: .unicode)
                XCTAssertEqual(lines.count, size.rows, "\(size)")
                for line in lines {
                    XCTAssertLessThanOrEqual(line.width, size.columns, "\(size): \(line.text)")
                }
            }
        }
    }

    func testTheSmallestFullDisplayShowsEverything() {
        let lines = text(ScreenLayout.lines(state(message: DisplayMessage("Keep your back straight", .cue)),
                                            size: ScreenSize(columns: 40, rows: 12), glyphs: .unicode))
        XCTAssertTrue(lines[0].hasPrefix(" HIIT") && lines[0].hasSuffix("3/12 "), lines[0])
        XCTAssertEqual(lines[1].trimmingCharacters(in: .whitespaces), "WORK  Burpees")
        // 0:35 in big digits, a font pixel 2 columns wide: the top row has the 3-pixel
        // strokes of the font.
        XCTAssertEqual(lines[2].trimmingCharacters(in: .whitespaces), "██████      ██████  ██████")
        XCTAssertEqual(lines[4].trimmingCharacters(in: .whitespaces), "██  ██        ████  ██████")
        XCTAssertTrue(lines[7].contains("█") && lines[7].contains("░"), "segment bar: \(lines[7])")
        XCTAssertEqual(lines[8].trimmingCharacters(in: .whitespaces), "round 2/8 · Main  ·  next: Rest 0:20")
        XCTAssertTrue(lines[9].contains("1:35") && lines[9].hasSuffix("8:25 left"), lines[9])
        XCTAssertEqual(lines[10].trimmingCharacters(in: .whitespaces), "Keep your back straight")
        XCTAssertTrue(lines[11].contains("space pause"), lines[11])
    }

    func testBarsFollowTheShownTime() {
        let bar = ScreenLayout.lines(state(remaining: 30), size: ScreenSize(columns: 44, rows: 12),
                                     glyphs: .ascii)[7].text
        // 10 of 40 seconds done on a 40-cell bar: 10 cells.
        XCTAssertEqual(bar, "  " + String(repeating: "#", count: 10) + String(repeating: "-", count: 30))
    }


    func testWholeSecondsToTheEndUnlessTenthsAreAskedFor() {
        XCTAssertEqual(state(remaining: 2.42).clockText, "0:03")
        XCTAssertEqual(state(remaining: 2.42, countUp: true).clockText, "0:37")
        XCTAssertEqual(state(remaining: 3.42, tenths: true).clockText, "0:04")
        XCTAssertEqual(state(remaining: 2.42, tenths: true).clockText, "0:02.5")
        XCTAssertEqual(state(remaining: 2.42, countUp: true, tenths: true).clockText, "0:37.5")
        XCTAssertEqual(state(remaining: 35, countUp: true, tenths: true).clockText, "0:05")
    }

    /// The clock is sized for the widest text it shows in a segment: without tenths that
    /// is `0:00`, so where the width limits it the digits are larger than with them.
    func testWithoutTenthsTheDigitsCanBeLarger() {
        for size in [ScreenSize(columns: 60, rows: 40), ScreenSize(columns: 80, rows: 60)] {
            let whole = ScreenLayout.lines(state(), size: size, glyphs: .unicode)
            let tenths = ScreenLayout.lines(state(tenths: true), size: size, glyphs: .unicode)
            let height = { (lines: [Line]) in lines.filter { $0.text.contains("█") }.count }
            XCTAssertGreaterThan(height(whole), height(tenths), "at \(size)")
        }
    }

    func testPausedIsPlain() {
        let lines = ScreenLayout.lines(state(paused: true), size: ScreenSize(columns: 60, rows: 16), glyphs: .unicode)
        XCTAssertTrue(lines[0].text.contains(" PAUSED "))
        XCTAssertTrue(lines.last!.text.contains("space resume"))
        XCTAssertTrue(lines[0].rendered(color: true).contains("\u{1B}[1;7m PAUSED "), "reverse video")
    }

    func testHelpListsTheKeys() {
        let lines = text(ScreenLayout.lines(state(help: true), size: ScreenSize(columns: 40, rows: 12), glyphs: .unicode))
        for key in ["space", "n ", "b ", "+ / -", "q, Esc", "?"] {
            XCTAssertTrue(lines.contains { $0.contains(key) }, key)
        }
    }

    func testBelowFortyByTwelveItIsOneStatusLine() {
        for size in [ScreenSize(columns: 39, rows: 24), ScreenSize(columns: 80, rows: 11)] {
            let lines = ScreenLayout.lines(state(), size: size, glyphs: .unicode)
            XCTAssertEqual(lines.count, 1)
            XCTAssertTrue(lines[0].text.hasPrefix("WORK  Burpees  0:35"), lines[0].text)
            XCTAssertLessThanOrEqual(lines[0].width, size.columns)
        }
        let tiny = ScreenLayout.lines(state(), size: ScreenSize(columns: 20, rows: 5), glyphs: .unicode)
        XCTAssertEqual(tiny[0].text, "WORK  Burpees  0:35")
    }

    func testColourOnlyWhenAskedAndEachBuiltInKindHasItsOwn() {
        let line = ScreenLayout.lines(state(), size: ScreenSize(columns: 40, rows: 12), glyphs: .unicode)[1]
        XCTAssertFalse(line.rendered(color: false).contains("\u{1B}"))
        XCTAssertTrue(line.rendered(color: true).contains("\u{1B}[1;31mWORK"))
        let colours = ["warmup", "work", "rest", "cooldown", "prep"].compactMap(KindStyle.sgr)
        XCTAssertEqual(Set(colours).count, 5)
        XCTAssertNil(KindStyle.sgr("stretch"), "a routine's own kind stays neutral")
    }

    func testAsciiWhereTheLocaleIsNotUTF8() {
        XCTAssertEqual(Glyphs.forLocale(["LANG": "en_US.UTF-8"]), .unicode)
        XCTAssertEqual(Glyphs.forLocale(["LC_ALL": "C", "LANG": "en_US.UTF-8"]), .ascii)
        XCTAssertEqual(Glyphs.forLocale([:]), .ascii)
        let lines = ScreenLayout.lines(state(), size: ScreenSize(columns: 40, rows: 12), glyphs: .ascii)
        XCTAssertTrue(lines.allSatisfy { $0.text.unicodeScalars.allSatisfy(\.isASCII) })
    }

    func testARoutinesTextCannotDriveTheTerminal() {
        let message = DisplayMessage("done\u{1B}[2J\u{7}", .log)
        XCTAssertFalse(message.text.unicodeScalars.contains { $0.value < 0x20 }, message.text)
        XCTAssertTrue(message.text.hasPrefix("done"))
    }

    /// `--tenths`: the session's snapshot carries it, so every viewer shows the same clock.
    func testTenthsAreTheSessionsChoice() throws {
        let harness = try Harness("return workout { name = \"T\", work(10, \"A\") }", options: SessionOptions(bell: false, tenths: true))
        harness.session.start()
        harness.clock.advance(by: 7.5)
        let snapshot = harness.session.snapshot()
        XCTAssertTrue(snapshot.tenths)
        XCTAssertEqual(snapshot.nextChange!, 7.6, accuracy: 1e-9)
        XCTAssertEqual(DisplayState(snapshot, countUp: false, message: nil, help: false).clockText, "0:02.5")
        XCTAssertTrue(snapshot.json.text.contains("\"tenths\":true"), snapshot.json.text)
    }

    /// The view model from a real session on the virtual clock.
    func testTheStateFollowsTheSession() throws {
        let harness = try Harness("""
            return workout { name = "Two", work(20, "A"), rounds(2, { rest(10, "B") }, { name = "Rests" }) }
            """)
        harness.session.start()
        harness.clock.advance(by: 4.5)
        var state = DisplayState(harness.session.snapshot(), countUp: false, message: nil, help: false)
        XCTAssertEqual(state.clockText, "0:16")
        XCTAssertEqual(state.next?.name, "B")
        XCTAssertEqual(state.workoutDone, 4)
        XCTAssertEqual(state.workoutLeft, 36)
        XCTAssertEqual(harness.session.snapshot().nextChange, 5)
        harness.clock.advance(by: 20)
        state = DisplayState(harness.session.snapshot(), countUp: false, message: nil, help: false)
        XCTAssertEqual(state.name, "B")
        XCTAssertEqual(state.round, 1)
        XCTAssertEqual(state.block, "Rests")
        XCTAssertEqual(state.clockText, "0:06")
        XCTAssertEqual(harness.session.snapshot().nextChange!, 25, accuracy: 1e-9)
        harness.clock.advance(by: 3)
        state = DisplayState(harness.session.snapshot(), countUp: false, message: nil, help: false)
        XCTAssertEqual(state.clockText, "0:03")
        XCTAssertEqual(harness.session.snapshot().nextChange!, 28, accuracy: 1e-9)
        harness.session.pause()
        XCTAssertNil(harness.session.snapshot().nextChange, "nothing moves while paused")
        XCTAssertTrue(DisplayState(harness.session.snapshot(), countUp: false, message: nil, help: false).paused)
    }
}
