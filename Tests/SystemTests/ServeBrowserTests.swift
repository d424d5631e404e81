import Foundation
import XCTest

/// The page in a real browser: headless Chromium, driven by Selenium
/// (Fixtures/page_check.py), opens the page of a real `workout run --serve`, sees the
/// segment and a countdown that moves, and presses Pause, Resume and Next; the workout's
/// JSON stream shows each. The screenshot it takes at phone size is the README's.
final class ServeBrowserTests: XCTestCase {
    struct Seen: Decodable {
        var name: String?
        var connected: Bool
        var info: String
        var next: String
        var clocks: [String]
        var paused_shown: Bool
        var paused_clocks: [String]
        var resumed_shown: Bool
        var next_name: String?
    }

    /// Where the screenshot goes (copied to docs/ for the README by hand).
    static let screenshot = packageRoot.appendingPathComponent(".build/page-phone.png")

    func testAPhoneFollowsAndControlsTheWorkout() throws {
        for program in ["/usr/bin/python3", "/usr/bin/chromium", "/usr/bin/chromedriver"]
            where !FileManager.default.isExecutableFile(atPath: program) {
            throw Missing(program: program)
        }
        let workout = try ServingWorkout(fixtures.appendingPathComponent("serve.lua").path)
        try? FileManager.default.removeItem(at: ServeBrowserTests.screenshot)
        let checker = fixtures.appendingPathComponent("page_check.py").path
        let result = try spawn("/usr/bin/python3", [checker, workout.url, ServeBrowserTests.screenshot.path])
        XCTAssertEqual(result.status, 0, "page_check.py failed (is python3-selenium installed?)")
        let seen = try JSONDecoder().decode(Seen.self, from: Data(result.output.utf8))

        XCTAssertEqual(seen.name, "Jog in place")
        XCTAssertTrue(seen.connected)
        XCTAssertEqual(seen.info, "tip easy does it")
        XCTAssertEqual(seen.next, "next: Squats 0:30")
        let seconds = seen.clocks.map(clockSeconds)
        XCTAssertEqual(Set(seconds).count, seconds.count, "the countdown moves: \(seen.clocks)")
        XCTAssertEqual(seconds, seconds.sorted(by: >), "and goes down: \(seen.clocks)")
        XCTAssertTrue(seconds.allSatisfy { $0 > 0 && $0 <= 40 }, "\(seen.clocks)")
        XCTAssertTrue(seen.paused_shown, "the page shows PAUSED")
        XCTAssertEqual(seen.paused_clocks.count, 2)
        XCTAssertEqual(seen.paused_clocks.first, seen.paused_clocks.last, "a paused clock stands still")
        XCTAssertTrue(seen.resumed_shown)
        XCTAssertEqual(seen.next_name, "Squats")

        // The buttons went through the session like keys: pause, resume, then Next skips.
        let names = workout.events.compactMap { $0["event"] as? String }
        let pause = try XCTUnwrap(names.firstIndex(of: "pause"))
        let resume = try XCTUnwrap(names.firstIndex(of: "resume"))
        XCTAssertLessThan(pause, resume)
        let skipped = try XCTUnwrap(workout.events.firstIndex { $0["event"] as? String == "segment_end" })
        XCTAssertLessThan(resume, skipped)
        XCTAssertEqual(workout.events[skipped]["skipped"] as? Bool, true)
        XCTAssertEqual(workout.events[skipped + 1]["event"] as? String, "segment_start")
        XCTAssertEqual(workout.events[skipped + 1]["name"] as? String, "Squats")

        let png = try Data(contentsOf: ServeBrowserTests.screenshot)
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "a PNG")
        XCTAssertEqual(png.subdata(in: 16..<20).reduce(0) { $0 << 8 | Int($1) }, 390, "phone width")
        XCTAssertEqual(png.subdata(in: 20..<24).reduce(0) { $0 << 8 | Int($1) }, 844, "phone height")

        let quit = try workout.request("POST", "/control", headers: ["Authorization: Bearer \(workout.token)"],
                                       body: #"{"action":"quit"}"#)
        XCTAssertEqual(quit.status, 204)
        XCTAssertEqual(workout.waitForExit(), 0)
        XCTAssertEqual(workout.events.last?["event"] as? String, "workout_end")
    }

    /// `0:32` → 32.
    func clockSeconds(_ text: String) -> Double {
        text.split(separator: ":").reduce(0) { $0 * 60 + (Double($1) ?? .nan) }
    }
}
