import Foundation
import XCTest

/// `workout follow` on a real terminal (tmux): the follower's live display.
extension FollowTests {
    /// The coach's segment on the follower's screen as on the coach's — its name, round x
    /// of n and info text — with the count-down moving; when the coach's workout ends, the
    /// follower ends and gives the terminal back as it found it (the same `stty -g`, the
    /// normal screen, the cursor shown).
    func testTheFollowersDisplayInATerminal() throws {
        broker = try Self.shared.get()
        let pane = try TmuxPane()
        let dir = pane.directory.path
        try pane.type("stty -g > \(dir)/before; XDG_CONFIG_HOME=\(dir) XDG_DATA_HOME=\(dir) DBUS_SESSION_BUS_ADDRESS= "
                      + "'\(WorkoutBinary.binary)' follow \(broker.url)/\(gym) --name ann --no-sensors --no-sound")
        XCTAssertTrue(pane.wait { pane.text.contains("waiting for the coach") }, pane.text)
        let coach = try start("""
            return workout { name = "Tmux class", countdown = 0,
              rounds(2, { work(6, "Plank", { text = "Hold it straight" }) }, { name = "Core" }) }
            """, ["--speed", "2", "--mqtt", broker.url + "/\(gym)"])
        XCTAssertTrue(pane.wait { pane.text.contains("WORK  Plank") }, "the follower shows the segment:\n\(pane.text)")
        let screen = pane.text
        // Round 1 or 2: with the parallel lane's five jobs beside it a follower once joined
        // after the first 3 s round.
        XCTAssertTrue(screen.contains("round 1/2 · Core") || screen.contains("round 2/2 · Core"), screen)
        XCTAssertTrue(screen.contains("Hold it straight"), screen)
        XCTAssertNotEqual(terminalModes(pane.tty), pane.file("before"), "the display runs in raw mode")
        XCTAssertEqual(pane.variable("alternate_on"), "1")
        let digits = { pane.screen.filter { $0.contains("█") && !$0.contains("░") }.joined(separator: "\n") }
        let first = digits()
        XCTAssertFalse(first.isEmpty, screen)
        XCTAssertTrue(pane.wait(timeout: 5) { digits() != first }, "the count-down moves")
        XCTAssertEqual(coach.wait(), 0, coach.stderr)
        XCTAssertTrue(pane.wait { pane.variable("pane_current_command") == "bash" }, "the follower ended with the coach")
        try pane.type("echo $? > \(dir)/status; stty -g > \(dir)/after")
        XCTAssertEqual(pane.file("status"), "0")
        XCTAssertEqual(pane.file("after"), pane.file("before"), "stty -g is the same after: not raw")
        XCTAssertEqual(pane.variable("alternate_on"), "0")
        XCTAssertEqual(pane.variable("cursor_flag"), "1")
    }
}
