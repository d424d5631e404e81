import Foundation
import XCTest

/// An open-ended routine in the live display: it shows `n/…`, no time left, and goes on
/// round after round until `q`.
extension TerminalTests {
    func testAnAMRAPRunsRoundAfterRoundUntilQ() throws {
        let pane = try TmuxPane(columns: 80, rows: 24)
        let dir = pane.directory.path
        try pane.type("stty -g > \(dir)/before; XDG_DATA_HOME=\(dir) XDG_CONFIG_HOME=\(dir) DBUS_SESSION_BUS_ADDRESS= "
                      + "'\(binary)' run best-round --set rest=3s --no-bell")
        XCTAssertTrue(pane.wait { pane.text.contains("PREP  Get ready") && pane.text.contains("done · open-ended") },
                      "no time left for an open-ended workout:\n\(pane.text)")
        XCTAssertTrue(pane.text.contains("1/…"), "no count either:\n\(pane.text)")
        try pane.send("n")
        XCTAssertTrue(pane.wait { pane.text.contains("WORK  Round 1") && pane.text.contains("— go!") }, pane.text)
        XCTAssertFalse(pane.text.contains("last segment"), "the next round is not made yet, but it is not the last:\n\(pane.text)")
        try pane.send("n")
        XCTAssertTrue(pane.wait { pane.text.contains("REST  Rest") }, pane.text)
        // The rest runs out by itself and the generator makes round 2, with the best time
        // the hook recorded for round 1.
        XCTAssertTrue(pane.wait { pane.text.contains("WORK  Round 2") && pane.text.contains("4/…") }, pane.text)
        XCTAssertTrue(pane.text.contains("— beat 0:0"), pane.text)
        try pane.send("q")
        XCTAssertEqual(try finish(pane), "0")
        XCTAssertEqual(pane.file("after"), pane.file("before"), "the terminal is given back")
        XCTAssertTrue(pane.text.contains("Stopped Best round in 0:"), pane.text)
        XCTAssertTrue(pane.text.contains("3/4 segments"), "a quit AMRAP counts the segments reached:\n\(pane.text)")
    }
}
