import Foundation
import XCTest

/// An imported Zwift workout and intervals.icu text run in a real terminal with their
/// targets on screen, as the hook `workout import` writes prints them.
extension TerminalTests {
    func testImportedWorkoutsShowTheirTargetsOnScreen() throws {
        // The Zwift warm-up has a text event at 0 s, which takes the message row from its target.
        for (file, first, second) in [("over-unders.zwo", "Easy spin to start", "65% FTP"),
                                      ("sweet-spot.txt", "ramp 50-75% FTP · 90 rpm", "60% FTP · 100-110 rpm")] {
            let pane = try TmuxPane(columns: 80, rows: 24)
            let dir = pane.directory.path
            let source = interchangeFixtures.appendingPathComponent(file).path
            try pane.type("export XDG_CONFIG_HOME=\(dir) XDG_DATA_HOME=\(dir) DBUS_SESSION_BUS_ADDRESS=; "
                          + "'\(binary)' import '\(source)' --name mine > \(dir)/import.out 2>&1 && "
                          + "'\(binary)' run mine --no-bell --no-sound")
            XCTAssertTrue(pane.wait { pane.text.contains(first) }, "\(file): the target is on screen:\n\(pane.text)")
            XCTAssertTrue(pane.text.contains("WARM-UP  Warmup"), pane.text)
            try pane.send("n")
            XCTAssertTrue(pane.wait { pane.text.contains(second) }, "\(file): the next segment's target:\n\(pane.text)")
            try pane.send("q")
            XCTAssertTrue(pane.wait { pane.variable("pane_current_command") == "bash" }, "the workout ended")
        }
    }
}
