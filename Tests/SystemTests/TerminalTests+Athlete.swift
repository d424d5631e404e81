import Foundation
import XCTest

/// An open set in a real terminal (issue 26): its clock counts up, Enter ends it and the
/// rest starts whole from that moment, `r` counts a round shown on screen, and the
/// history keeps the set's length.
extension TerminalTests {
    /// The status line of a pane too small for the full display: the clock as text.
    func statusLine(_ pane: TmuxPane) -> String { pane.screen.first ?? "" }

    func testEnterEndsTheSetAndTheRestStartsFromThatMoment() throws {
        let pane = try start("athlete.lua", columns: 36, rows: 8, shows: "Squats")
        // The set counts up; a press counts from its first second on.
        XCTAssertTrue(pane.wait { statusLine(pane).hasPrefix("WORK  Squats  0:02") }, pane.text)
        try pane.send("r")
        XCTAssertTrue(pane.wait { statusLine(pane).hasPrefix("WORK  Squats  0:02  rounds 1")
                                  || statusLine(pane).hasPrefix("WORK  Squats  0:03  rounds 1") }, pane.text)
        try pane.send("Enter")
        var rest = ""
        XCTAssertTrue(pane.wait {
            rest = statusLine(pane)
            return rest.hasPrefix("REST  Rest  ")
        }, pane.text)
        XCTAssertTrue(rest.hasPrefix("REST  Rest  0:30") || rest.hasPrefix("REST  Rest  0:29"),
                      "the whole rest, from the done moment: \(rest)")
        try pane.send("q")
        XCTAssertEqual(try finish(pane), "0")
        let history = try String(contentsOf: pane.directory.appendingPathComponent("workout/history.jsonl"), encoding: .utf8)
        let entry = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(history.utf8)) as? [String: Any], history)
        let open = try XCTUnwrap(entry["open"] as? [[String: Any]], history)
        XCTAssertEqual(open.first?["by"] as? String, "athlete")
        let seconds = try XCTUnwrap(open.first?["seconds"] as? Double)
        XCTAssertTrue(seconds >= 2 && seconds < 10, "the set's length: \(seconds)")
    }

    func testTheFullDisplayOffersDoneAndShowsTheCapAndTheRounds() throws {
        let pane = try start("athlete.lua", shows: "Squats")
        XCTAssertTrue(pane.wait { pane.screen.contains { $0.contains("Enter done  space pause") } }, pane.text)
        XCTAssertTrue(pane.text.contains(" cap 5:00"), pane.text)
        XCTAssertTrue(pane.text.contains("next: Rest 0:30"), pane.text)
        try pane.send("r")
        try pane.send("r")
        XCTAssertTrue(pane.wait { pane.screen.contains { $0.trimmingCharacters(in: .whitespaces) == "rounds 2" } }, pane.text)
        try pane.send("n")
        XCTAssertTrue(pane.wait { pane.text.contains("REST  Rest") }, pane.text)
        XCTAssertTrue(pane.wait { !pane.text.contains("Enter done") && pane.text.contains("space pause") },
                      "a timed rest has no done: \(pane.text)")
        XCTAssertTrue(pane.text.contains("next: Press open ~1:00"), pane.text)
        try pane.send("q")
        XCTAssertEqual(try finish(pane), "0")
    }
}
