import Display
import IntervalEngine
import XCTest

final class KeyParserTests: XCTestCase {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    func testEachKeyHasItsCommand() {
        XCTAssertEqual(KeyParser.actions(in: bytes(" nb+-q?")),
                       [.session(.toggle), .session(.next), .session(.back), .session(.add(seconds: 10)),
                        .session(.add(seconds: -10)), .session(.quit), .help])
        XCTAssertEqual(KeyParser.actions(in: bytes("N=_Q")),
                       [.session(.next), .session(.add(seconds: 10)), .session(.add(seconds: -10)), .session(.quit)])
    }

    func testALoneEscapeQuits() {
        XCTAssertEqual(KeyParser.actions(in: [0x1B]), [.session(.quit)])
        XCTAssertEqual(KeyParser.actions(in: [0x6E, 0x1B]), [.session(.next), .session(.quit)])
    }

    func testEscapeSequencesAreSwallowedWhole() {
        // Arrow up, F5, SS3 arrow, Alt+q: none of them quits or acts.
        XCTAssertEqual(KeyParser.actions(in: bytes("\u{1B}[A\u{1B}[15~\u{1B}OB\u{1B}q")), [])
        XCTAssertEqual(KeyParser.actions(in: bytes("\u{1B}[Cn")), [.session(.next)])
    }

    func testOtherBytesAreIgnored() {
        XCTAssertEqual(KeyParser.actions(in: bytes("xyz\t")), [])
        XCTAssertEqual(KeyParser.actions(in: bytes("\r\n")), [.session(.done)], "CR LF is one Enter")
        XCTAssertEqual(KeyParser.actions(in: bytes("\rr\nl")),
                       [.session(.done), .session(.tally(name: "rounds", add: 1)), .session(.done), .session(.lap)])
        XCTAssertEqual(KeyParser.actions(in: [0xC3, 0xA9]), [])
    }
}
