import Foundation
import XCTest

/// The live display in a real terminal (tmux): what is on screen, the keys, resizing,
/// signals, and the terminal's modes given back on every way out.
final class TerminalTests: XCTestCase {
    var binary: String { WorkoutBinary.binary }

    /// A pane running a routine of Fixtures (the display routine unless told), the
    /// terminal's modes recorded before.
    func start(_ fixture: String = "display.lua", columns: Int = 80, rows: Int = 24, arguments: String = "",
               environment: String = "", shows expected: String = "Squats", recording: Bool = false) throws -> TmuxPane {
        let routine = fixtures.appendingPathComponent(fixture).path
        let pane = try TmuxPane(columns: columns, rows: rows)
        if recording { try pane.record() }
        let dir = pane.directory.path
        try pane.type("stty -g > \(dir)/before; XDG_DATA_HOME=\(dir) DBUS_SESSION_BUS_ADDRESS= \(environment) "
                      + "'\(binary)' run '\(routine)' \(arguments)")
        XCTAssertTrue(pane.wait { pane.text.contains(expected) }, "the display shows the segment:\n\(pane.text)")
        return pane
    }

    /// Once the workout has ended: its exit status, and the terminal's modes recorded after.
    func finish(_ pane: TmuxPane) throws -> String? {
        let dir = pane.directory.path
        XCTAssertTrue(pane.wait { pane.variable("pane_current_command") == "bash" }, "the workout ended")
        try pane.type("echo $? > \(dir)/status; stty -g > \(dir)/after")
        return pane.file("status")
    }

    /// The rows of big digits: everything between the title and the segment bar.
    func clock(_ pane: TmuxPane) -> String {
        pane.screen.filter { $0.contains("█") && !$0.contains("░") }.joined(separator: "\n")
    }

    func testTheDisplayShowsTheSegmentAndTheCountdownTicks() throws {
        let pane = try start()
        let screen = pane.text
        XCTAssertTrue(screen.contains("WORK  Squats"), screen)
        XCTAssertTrue(screen.contains("next: Breathe 0:40"), screen)
        XCTAssertTrue(screen.contains("Display test"), screen)
        XCTAssertTrue(screen.contains("space pause"), screen)
        let first = clock(pane)
        XCTAssertFalse(first.isEmpty)
        XCTAssertTrue(pane.wait(timeout: 5) { clock(pane) != first }, "the countdown moves")
    }

    func testSpaceShowsPausedAndTheCountdownStops() throws {
        let pane = try start()
        try pane.send("Space")
        XCTAssertTrue(pane.wait { pane.text.contains("PAUSED") }, pane.text)
        let paused = clock(pane)
        XCTAssertFalse(pane.wait(timeout: 1.5) { clock(pane) != paused }, "a paused countdown stands still")
        try pane.send("Space")
        XCTAssertTrue(pane.wait { !pane.text.contains("PAUSED") }, pane.text)
        XCTAssertTrue(pane.wait(timeout: 5) { clock(pane) != paused }, "and moves again on resume")
    }

    func testNShowsTheNextSegment() throws {
        let pane = try start()
        try pane.send("n")
        XCTAssertTrue(pane.wait { pane.text.contains("REST  Breathe") }, pane.text)
        XCTAssertTrue(pane.text.contains("next: Lunges"), pane.text)
    }

    func testQQuitsWithZeroAndGivesTheTerminalBack() throws {
        let pane = try start()
        XCTAssertNotEqual(terminalModes(pane.tty), pane.file("before"), "the display runs in raw mode")
        XCTAssertEqual(pane.variable("alternate_on"), "1")
        XCTAssertEqual(pane.variable("cursor_flag"), "0", "cursor hidden")
        try pane.send("q")
        XCTAssertEqual(try finish(pane), "0")
        XCTAssertEqual(pane.file("after"), pane.file("before"), "stty -g is the same after")
        XCTAssertEqual(pane.variable("alternate_on"), "0")
        XCTAssertEqual(pane.variable("cursor_flag"), "1")
        XCTAssertTrue(pane.text.contains("Stopped Display test in 0:0"), "summary on the normal screen:\n\(pane.text)")
    }

    func testResizingRedrawsForTheNewSize() throws {
        let pane = try start()
        try pane.resize(columns: 50, rows: 14)
        XCTAssertTrue(pane.wait {
            let screen = pane.screen
            return screen.contains { $0.contains("WORK  Squats") } && screen.allSatisfy { $0.count <= 50 }
                && screen.contains { $0.hasSuffix(" left") }
        }, pane.text)
        try pane.resize(columns: 36, rows: 8)
        XCTAssertTrue(pane.wait { pane.screen.first?.hasPrefix("WORK  Squats  0:") == true }, "one status line:\n\(pane.text)")
        try pane.send("q")
        XCTAssertEqual(try finish(pane), "0")
    }

    func testCtrlCGivesTheTerminalBackAndExits130() throws {
        let pane = try start()
        try pane.send("C-c")
        XCTAssertEqual(try finish(pane), "130")
        XCTAssertEqual(pane.file("after"), pane.file("before"))
        XCTAssertTrue(pane.text.contains("Stopped Display test"), pane.text)
    }

    func testCtrlZPausesAndGivesTheTerminalBackThenFgContinuesPaused() throws {
        let pane = try start()
        try pane.send("C-z")
        XCTAssertTrue(pane.wait { pane.text.contains("workout: paused; type fg to go on") }, pane.text)
        XCTAssertTrue(pane.wait { pane.text.contains("Stopped") }, "the shell has the job stopped:\n\(pane.text)")
        XCTAssertEqual(pane.variable("alternate_on"), "0", "normal screen while stopped")
        XCTAssertEqual(pane.variable("cursor_flag"), "1", "cursor shown while stopped")
        try pane.type("fg")
        XCTAssertTrue(pane.wait { pane.text.contains("PAUSED") && pane.text.contains("Squats") }, pane.text)
        XCTAssertEqual(pane.variable("alternate_on"), "1")
        XCTAssertNotEqual(terminalModes(pane.tty), pane.file("before"), "raw mode again")
        let paused = clock(pane)
        XCTAssertFalse(pane.wait(timeout: 1.2) { clock(pane) != paused }, "still paused")
        try pane.send("q")
        XCTAssertEqual(try finish(pane), "0")
        XCTAssertEqual(pane.file("after"), pane.file("before"))
    }

    func testCountUpShowsTimeDone() throws {
        // On a terminal too small for the full display the clock is text.
        let pane = try start(columns: 36, rows: 8, arguments: "--count-up")
        XCTAssertTrue(pane.wait { pane.screen.first?.hasPrefix("WORK  Squats  0:01") == true }, pane.text)
        let down = try start(columns: 36, rows: 8)
        XCTAssertTrue(down.wait { down.screen.first?.hasPrefix("WORK  Squats  0:39") == true }, down.text)
    }

    func testColourUnlessNoColor() throws {
        let coloured = try start()
        XCTAssertTrue(coloured.styledText.contains("\u{1B}[1m\u{1B}[31mWORK")
                      || coloured.styledText.contains("\u{1B}[1;31mWORK"), coloured.styledText)
        let plain = try start(environment: "NO_COLOR=1")
        let styled = plain.styledText
        XCTAssertTrue(styled.contains("WORK  Squats"), styled)
        XCTAssertFalse(styled.contains("\u{1B}[31m") || styled.contains(";31m"), "no colour with NO_COLOR:\n\(styled)")
    }

    func testADumbTerminalGetsPlainLines() throws {
        let pane = try start(environment: "TERM=dumb", shows: "1/3 work \"Squats\" 0:40")
        XCTAssertEqual(pane.variable("alternate_on"), "0", "no full-screen display")
        XCTAssertTrue(pane.text.contains("start Display test: 3 segments, 2:00"), pane.text)
        try pane.send("C-c")
        XCTAssertEqual(try finish(pane), "130")
        XCTAssertEqual(pane.file("after"), pane.file("before"))
    }
}
