import WorkoutValues
import TestSupport
import XCTest
@testable import Interchange
@testable import IntervalEngine

/// One rule for every name a routine gives (workout, segment, kind, score): no control
/// characters, tabs and bidirectional controls included; and what is printed shows the
/// bidirectional controls escaped, as it shows the other controls.
final class NameRuleTests: XCTestCase {
    func testBidirectionalControlsAreEscapedLikeOtherControls() {
        XCTAssertEqual(VisibleText.escape("evil\u{202E}exe.lua"), #"evil\u{202E}exe.lua"#)
        for scalar in [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069] {
            XCTAssertTrue(VisibleText.isControl(Unicode.Scalar(scalar)!), String(scalar, radix: 16))
        }
        XCTAssertFalse(VisibleText.isControl("é"))
        XCTAssertFalse(VisibleText.isControl("\u{2010}"), "a hyphen is text")
        XCTAssertEqual(VisibleText.escape("a\tb\u{1B}"), "a\tb\\27", "a tab printed stays a tab")
    }

    func testANameWithABidirectionalControlOrATabIsRefused() {
        XCTAssertEqual(loadError("return workout { name = \"evil\u{202E}exe\", work(60) }"),
                       #"test.lua:1: workout: name must be text without control characters, got "evil\u{202E}exe""#)
        XCTAssertEqual(loadError("return workout { name = \"T\", work(60, \"\\tTab\") }"),
                       "test.lua:1: work: name must be text without control characters, got \"\tTab\"")
        XCTAssertEqual(loadError("return workout { name = \"T\", segment { kind = \"wo\u{2066}rk\", duration = 5 } }"),
                       #"test.lua:1: segment: kind must be text without control characters, got "wo\u{2066}rk""#)
    }

    func testAScoreNameWithATabIsRefusedAsOneWithAnEscapeIs() throws {
        for name in ["\\tTAB", "\\27[2J", "\u{202E}x"] {
            let harness = try Harness("return workout { name = \"T\", countdown = 0, work(5), "
                                      + "on_start = function() record(\"\(name)\", 1) end }")
            let trace = harness.run()
            XCTAssertTrue(trace.contains("0 error on_start"), "\(name): \(trace)")
            XCTAssertFalse(trace.contains { $0.contains(" score ") }, "\(name): \(trace)")
        }
    }

    /// An imported name keeps no control; a Lua string literal spells one above 255 as
    /// Lua reads it.
    func testImportedTextNeverHoldsABidirectionalControl() throws {
        XCTAssertEqual(ImportedRoutine.oneLine("evil\u{202E}exe"), "evilexe")
        let literal = ImportedRoutine.lua("a\u{202E}b")
        XCTAssertEqual(literal, #""a\u{202e}b""#)
        // Lua reads it back as the control itself, which a description may not hold.
        XCTAssertEqual(loadError("return workout { name = \"T\", description = \(literal), work(5) }"),
                       #"test.lua:1: workout: description must be text without control characters, got "a\u{202E}b""#)
    }
}
