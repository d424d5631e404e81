import Foundation
import XCTest

/// The display read from across the room, in a real terminal: the digits fill a large
/// pane, the band has the kind's background, a boundary flashes, the payload has an area
/// of its own, and what is printed at the finish stays on screen after the display closes.
extension TerminalTests {
    /// A row of the band while it flashes: every cell inked.
    func flashing(_ pane: TmuxPane, columns: Int = 80) -> Bool {
        pane.screen.contains { $0 == String(repeating: "█", count: columns) }
    }

    func testTheDigitsFillMostOfA200By60Terminal() throws {
        let pane = try start(columns: 200, rows: 60)
        let rows = pane.screen.filter { $0.contains("█") || $0.contains("▀") || $0.contains("▄") }
            .filter { !$0.contains("░") }
        XCTAssertGreaterThanOrEqual(rows.count, 36, "at least 60% of the rows:\n\(pane.text)")
        let widest = rows.map { $0.trimmingCharacters(in: .whitespaces).count }.max() ?? 0
        XCTAssertGreaterThan(widest, 100, "and more than half the width")
        XCTAssertTrue(pane.text.contains("WORK  Squats") && pane.text.contains("next: Breathe"), pane.text)
    }

    func testTheBandHasTheKindsBackgroundUnlessCalm() throws {
        let banded = try start()
        XCTAssertTrue(banded.wait { banded.styledText.contains("\u{1B}[41m") },
                      "work: a red background:\n\(banded.styledText)")
        try banded.send("n")
        XCTAssertTrue(banded.wait { banded.text.contains("REST  Breathe") && banded.styledText.contains("\u{1B}[42m") },
                      "rest: green:\n\(banded.styledText)")
        XCTAssertFalse(banded.styledText.contains("\u{1B}[41m"), "no red left")
        for look in [(arguments: "--calm", environment: ""), (arguments: "", environment: "NO_COLOR=1")] {
            let plain = try start(arguments: look.arguments, environment: look.environment)
            // The first frame is drawn whole: once it shows the segment, its band would be there.
            XCTAssertTrue(plain.wait { plain.text.contains("WORK  Squats") }, plain.text)
            let styled = plain.styledText
            XCTAssertFalse(styled.contains("[41m") || styled.contains(";41m"), "no band with \(look):\n\(styled)")
            XCTAssertTrue(plain.text.contains("WORK  Squats"))
        }
        let calm = try start(arguments: "--calm")
        XCTAssertTrue(calm.wait { calm.styledText.contains("\u{1B}[31m█") || calm.styledText.contains(";31m█") },
                      "calm: the digits in red, as before:\n\(calm.styledText)")
    }

    /// At a tenth of the speed a flash lasts two real seconds: long enough to see it come
    /// and go. The pane's output is recorded too, to tell for sure that `--no-flash` never
    /// drew one.
    func testABoundaryFlashesTheBandUnlessNoFlash() throws {
        let pane = try start("flash.lua", arguments: "--speed 0.1", shows: "Short", recording: true)
        var seen = false
        XCTAssertTrue(pane.wait(timeout: 30) {
            if pane.text.contains("REST  Breathe") && flashing(pane) { seen = true }
            return seen
        }, "the band flashes as the rest starts:\n\(pane.text)")
        let styled = pane.styledText
        XCTAssertTrue(styled.contains("97m") && styled.contains("42m"), "white on the rest's green:\n\(styled)")
        XCTAssertTrue(pane.wait(timeout: 10) { !flashing(pane) && pane.styledText.contains("\u{1B}[42m") },
                      "and ends, the band green again:\n\(pane.text)")
        XCTAssertTrue(pane.output.contains("1;97;42"), "the recording has the flash's white on green")

        let quiet = try start("flash.lua", arguments: "--speed 0.1 --no-flash", shows: "Short", recording: true)
        XCTAssertTrue(quiet.wait(timeout: 30) { quiet.text.contains("REST  Breathe") }, quiet.text)
        let output = quiet.output
        XCTAssertTrue(output.contains("\u{1B}[42m"), "the recording has the rest's band:\n\(output.suffix(500))")
        // On the rest's green the digits are black (1;30;42); flashing, the band turns white.
        XCTAssertTrue(output.contains("1;30;42"), "the rest's digits")
        XCTAssertFalse(output.contains("1;97;42"), "--no-flash: the band never flashed")
    }

    func testThePayloadHasAnAreaACueDoesNotReplace() throws {
        let pane = try start("room.lua", shows: "Squats")
        XCTAssertTrue(pane.wait { pane.text.contains("Keep going") }, "the cue comes:\n\(pane.text)")
        let screen = pane.screen.map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(screen.contains("sit back, chest up · reps: 12"), "the info stays in view:\n\(pane.text)")
        XCTAssertTrue(screen.contains("next: Breathe 0:40 · in through the nose"), pane.text)
        try pane.send("q")
        XCTAssertEqual(try finish(pane), "1", "the hook's error makes the status 1")
    }

    func testWhatIsPrintedAtTheFinishStaysAfterTheDisplayCloses() throws {
        // No speech synthesizer on this PATH: --voice gives a warning during the run.
        let pane = try start("room.lua", arguments: "--voice", environment: "PATH=/nonexistent", shows: "Squats")
        XCTAssertTrue(pane.wait { pane.text.contains("Keep going") }, pane.text)
        try pane.send("q")
        XCTAssertEqual(try finish(pane), "1")
        let lines = pane.screen
        let summary = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("Stopped Room test in 0:0") }, pane.text)
        let after = Array(lines[(summary + 1)...])
        XCTAssertEqual(after.first, "Well done: 0 segments", "on_finish's print, right below the summary:\n\(pane.text)")
        XCTAssertTrue(after.contains("workout: no speech synthesizer (spd-say or espeak-ng); spoken text is only shown"),
                      "the warning:\n\(pane.text)")
        XCTAssertTrue(after.contains { $0.hasPrefix("workout: ") && $0.contains("room.lua:13: boom (in on_start)") },
                      "the error:\n\(pane.text)")
    }

    func testADumbTerminalQuitsWithQAndEnter() throws {
        let pane = try start(environment: "TERM=dumb", shows: "1/3 work \"Squats\" 0:40")
        try pane.type("q")
        XCTAssertEqual(try finish(pane), "0")
        XCTAssertTrue(pane.text.contains("stopped after 0:0"), pane.text)
        XCTAssertEqual(pane.file("after"), pane.file("before"), "the terminal's modes are as they were")
    }
}
