import Foundation
import Platform
import XCTest
@testable import History
@testable import IntervalEngine

/// Every path comes from the environment the same way: `XDG_*` when absolute, then
/// `HOME`, and the password database only without a `HOME`.
extension EndToEndTests {
    func testEveryCommandFollowsHome() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("workout-home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: home) }
        // Relative XDG values are ignored, as the spec says, like unset ones.
        let environment = ["HOME": home.path, "XDG_CONFIG_HOME": "", "XDG_DATA_HOME": "relative/data"]
        let new = try workout(["new", "mine"], environment: environment)
        XCTAssertEqual(new.status, 0, new.stderr)
        let routine = home.appendingPathComponent(".config/workout/programs/mine.lua")
        XCTAssertTrue(FileManager.default.fileExists(atPath: routine.path), new.stdout)
        XCTAssertTrue(new.stdout.contains("Created \(routine.path)."), new.stdout)
        let list = try workout(["list"], environment: environment)
        XCTAssertTrue(list.stdout.contains("Your programs (\(home.path)/.config/workout/programs)"), list.stdout)
        XCTAssertTrue(list.lines.contains { $0.hasPrefix("  mine ") }, list.stdout)
        let run = try workout(["run", "mine", "--speed", "10000", "--set", "rounds=1"], environment: environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        let history = try workout(["history"], environment: environment)
        XCTAssertTrue(history.stdout.contains("  mine "), history.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: home.appendingPathComponent(".local/share/workout/history.jsonl").path))
    }

    func testTheDirectoriesComeFromTheEnvironmentOneWay() {
        let user = UserDirectories(environment: ["HOME": "/home/u"])
        XCTAssertEqual(user.config, "/home/u/.config")
        XCTAssertEqual(user.data, "/home/u/.local/share")
        XCTAssertEqual(user.programs, "/home/u/.config/workout/programs")
        let xdg = UserDirectories(environment: ["HOME": "/home/u", "XDG_CONFIG_HOME": "/c", "XDG_DATA_HOME": "/d"])
        XCTAssertEqual(xdg.programs, "/c/workout/programs")
        XCTAssertEqual(HistoryFile(environment: xdg.environment).path, "/d/workout/history.jsonl")
        let relative = UserDirectories(environment: ["HOME": "/home/u", "XDG_CONFIG_HOME": "c", "XDG_DATA_HOME": ""])
        XCTAssertEqual(relative.config, "/home/u/.config")
        XCTAssertEqual(relative.data, "/home/u/.local/share")
        // Without HOME: the password database's home, as a login would have set it.
        let account = String(cString: getpwuid(getuid()).pointee.pw_dir)
        XCTAssertEqual(UserDirectories(environment: [:]).config, (account as NSString).appendingPathComponent(".config"))
    }
}
