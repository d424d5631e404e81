import Display
import XCTest

final class KeyParserTests: XCTestCase {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    func testEachKeyHasItsCommand() {
        XCTAssertEqual(KeyParser.commands(in: bytes(" nb+-q?")),
                       [.togglePause, .next, .back, .longer, .shorter, .quit, .help])
        XCTAssertEqual(KeyParser.commands(in: bytes("N=_Q")), [.next, .longer, .shorter, .quit])
    }

    func testALoneEscapeQuits() {
        XCTAssertEqual(KeyParser.commands(in: [0x1B]), [.quit])
        XCTAssertEqual(KeyParser.commands(in: [0x6E, 0x1B]), [.next, .quit])
    }

    func testEscapeSequencesAreSwallowedWhole() {
        // Arrow up, F5, SS3 arrow, Alt+q: none of them quits or acts.
        XCTAssertEqual(KeyParser.commands(in: bytes("\u{1B}[A\u{1B}[15~\u{1B}OB\u{1B}q")), [])
        XCTAssertEqual(KeyParser.commands(in: bytes("\u{1B}[Cn")), [.next])
    }

    func testOtherBytesAreIgnored() {
        XCTAssertEqual(KeyParser.commands(in: bytes("xyz\r\n\t")), [])
        XCTAssertEqual(KeyParser.commands(in: [0xC3, 0xA9]), [])
    }
}
