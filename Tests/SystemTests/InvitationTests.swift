import Display
import Foundation
import IntervalEngine
import WebRemote
import WorkoutValues
import XCTest

/// `run --serve`'s QR code: made by libqrencode, drawn in half blocks by the display, and
/// read back by a real QR reader (zbarimg) from a picture of what the terminal shows.
final class InvitationTests: XCTestCase {
    let url = "http://192.168.100.200:8417/?token=Sz5p_N84rwHpkOWYiWcVaQ"

    /// The half blocks back into modules, light as the terminal shows them (ink is light).
    func modules(of lines: [Line]) -> [[Bool]] {
        var rows: [[Bool]] = []
        for line in lines {
            var top: [Bool] = []
            var bottom: [Bool] = []
            for character in line.text {
                top.append(character == "█" || character == "▀")
                bottom.append(character == "█" || character == "▄")
            }
            rows += [top, bottom]
        }
        return rows
    }

    /// What zbarimg reads from a picture of light/dark modules, `scale` pixels each.
    func decode(light: [[Bool]], scale: Int = 6) throws -> String {
        guard let reader = ["/usr/bin/zbarimg", "/bin/zbarimg"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw Missing(program: "zbarimg (zbar-tools)")
        }
        let width = (light.map(\.count).max() ?? 0) * scale
        var pbm = "P1\n\(width) \(light.count * scale)\n"
        for row in light {
            let pixels = row.map { $0 ? "0" : "1" }.flatMap { Array(repeating: $0, count: scale) }
                + Array(repeating: "0", count: width - row.count * scale)
            let text = pixels.joined(separator: " ") + "\n"
            pbm += String(repeating: text, count: scale)
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString).pbm")
        try pbm.write(to: file, atomically: false, encoding: .ascii)
        defer { try? FileManager.default.removeItem(at: file) }
        return try spawn(reader, ["--raw", "-q", file.path]).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testTheCodeOnTheDisplayReadsBackAsTheURL() throws {
        let invitation = Invitation(url: url, modules: QRCode.modules(url))
        XCTAssertEqual(invitation.modules.count, 33, "version 4 at level M for a LAN URL")
        let picture = invitation.picture(glyphs: .unicode)
        XCTAssertEqual(picture.count, invitation.pictureSize.rows)
        XCTAssertEqual(picture.first?.width, invitation.pictureSize.columns)
        XCTAssertEqual(picture.first?.spans.first?.sgr, "97;40", "white on black, whatever the terminal's colours")
        XCTAssertEqual(try decode(light: modules(of: picture)), url)
    }

    func testTheLayoutShowsTheCodeWhenItFitsAndTheURLAlways() {
        let invitation = Invitation(url: url, modules: QRCode.modules(url))
        var state = DisplayState(routine: "Tabata", name: "Get ready", kind: "prep", index: 1, count: 49,
                                 clock: ShownTime(remaining: 9, tenths: false), duration: 10, workoutDone: 1, workoutLeft: 939)
        state.invitation = invitation
        let tall = ScreenLayout.lines(state, size: ScreenSize(columns: 80, rows: 34), glyphs: .unicode).map(\.text)
        XCTAssertTrue(tall.contains { $0.contains(url) })
        XCTAssertTrue(tall.contains { $0.contains("PREP  Get ready  0:09") }, "the segment stays in view")
        XCTAssertEqual(tall.filter { $0.contains("█") || $0.contains("▀") }.count, invitation.pictureSize.rows)
        let short = ScreenLayout.lines(state, size: ScreenSize(columns: 80, rows: 18), glyphs: .unicode).map(\.text)
        XCTAssertTrue(short.contains { $0.contains(url) })
        XCTAssertFalse(short.contains { $0.contains("█") }, "no room for the code: the URL alone")
        let ascii = ScreenLayout.lines(state, size: ScreenSize(columns: 80, rows: 34), glyphs: .ascii).map(\.text)
        XCTAssertTrue(ascii.contains { $0.contains(url) })
        XCTAssertFalse(ascii.contains { $0.contains("#") }, "no half blocks in ASCII")
    }

    /// In a real terminal: the code and the URL while the first segment runs; `?` hides
    /// them and brings the big clock back.
    func testTheLiveDisplayShowsTheCodeUntilQuestionMark() throws {
        let pane = try TmuxPane(columns: 80, rows: 34)
        let dir = pane.directory.path
        let routine = fixtures.appendingPathComponent("serve.lua").path
        try pane.type("XDG_DATA_HOME=\(dir) XDG_CONFIG_HOME=\(dir) DBUS_SESSION_BUS_ADDRESS= '\(WorkoutBinary.binary)' "
                      + "run '\(routine)' --serve 127.0.0.1:0")
        XCTAssertTrue(pane.wait { pane.text.contains("/?token=") }, pane.text)
        let token = try String(contentsOfFile: "\(dir)/workout/serve-token", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(pane.text.contains("?token=\(token)"), pane.text)
        XCTAssertTrue(pane.text.contains("WARM-UP  Jog in place"), pane.text)
        let code = pane.screen.filter { $0.contains("▀") || $0.contains("▄") }
        XCTAssertGreaterThan(code.count, 15, pane.text)
        let url = try XCTUnwrap(pane.screen.first { $0.contains("/?token=") }).trimmingCharacters(in: .whitespaces)
        XCTAssertEqual(try decode(light: modules(of: code.map { Line(String($0.drop { $0 == " " })) })), url)
        try pane.send("?")
        XCTAssertTrue(pane.wait { !pane.text.contains("/?token=") }, pane.text)
        XCTAssertTrue(pane.text.contains("space pause"), pane.text)
        try pane.send("q")
        XCTAssertTrue(pane.wait { pane.variable("pane_current_command") == "bash" }, "the workout ended")
    }
}
