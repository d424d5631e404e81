import Foundation
import XCTest

/// `workout check` runs each routine on the virtual clock and warns of what would go
/// unnoticed until the workout: a hook's sound file the routine does not name, a percent
/// target without an FTP. Warnings go to standard error and leave the exit status 0.
extension EndToEndTests {
    /// A folder with `mine.lua` (its text given) and a knock.wav sox makes beside it.
    private func checkFolder(_ routine: String) throws -> URL {
        let folder = try temporaryConfig()
        let sox = "/usr/bin/sox"
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: sox), "sox is not installed (make test installs it)")
        let made = try spawn(sox, ["-n", "-r", "44100", "-c", "1", folder.appendingPathComponent("knock.wav").path,
                                   "synth", "0.2", "sine", "440"])
        XCTAssertEqual(made.status, 0, "sox made knock.wav")
        try routine.write(to: folder.appendingPathComponent("mine.lua"), atomically: false, encoding: .utf8)
        return folder
    }

    func testCheckWarnsOfASoundFileTheRoutineDoesNotNameAndNotOfOneItNames() throws {
        let folder = try checkFolder("""
            return workout { name = "Mine", countdown = 0, sound_files = { "knock.wav" },
              work(30, "Squats"), rest(10), work(30, "Squats"),
              on_segment_start = function(seg)
                sound("knock.wav")
                if seg.kind == "work" then sound("whistle.wav") end
              end }
            """)
        let config = folder.appendingPathComponent("config").path
        let result = try workout(["check", folder.appendingPathComponent("mine.lua").path], environment: ["XDG_CONFIG_HOME": config])
        XCTAssertEqual(result.status, 0, "a warning is not a failure: \(result.stderr)")
        XCTAssertEqual(result.stderr, #"workout: warning: mine.lua:5: sound("whistle.wav") plays a file the routine does not "#
                       + #"name in sounds or sound_files, so it is not heard; add it to sound_files = { "whistle.wav" }"# + "\n",
                       "once, with its line; knock.wav is named and decoded")
        XCTAssertEqual(result.lines, ["ok  \(folder.appendingPathComponent("mine.lua").path): Mine, 3 segments, 1:10"])
    }

    func testCheckWarnsOfAPercentTargetWithoutAnFTPUnlessOneIsSet() throws {
        let folder = try checkFolder("""
            return workout { name = "Threshold", countdown = 0,
              work("10:00", "Warm up", { watts = 150 }),
              rounds(3, { work("8:00", "Threshold", { power = 95 }), rest("2:00", "Easy", { watts = 120 }) }) }
            """)
        let mine = folder.appendingPathComponent("mine.lua").path
        let config = folder.appendingPathComponent("config")
        let environment = ["XDG_CONFIG_HOME": config.path]
        let without = try workout(["check", mine], environment: environment)
        XCTAssertEqual(without.status, 0, without.stderr)
        XCTAssertEqual(without.stderr, #"workout: warning: mine.lua:3: segment 2 "Threshold" (and 2 more segments after it) "#
                       + "has power = 95 (percent of FTP) but no FTP is set, so a trainer gets no power target there; "
                       + "give it watts = … instead, or set ftp = … (--set ftp=250, or ftp = 250 in the athlete file "
                       + "~/.config/workout/athlete)\n")
        XCTAssertEqual(without.lines.count, 1, without.stdout)

        let set = try workout(["check", mine, "--set", "ftp=250"], environment: environment)
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertEqual(set.stderr, "", "--set ftp turns the percent into watts")

        try FileManager.default.createDirectory(at: config.appendingPathComponent("workout"), withIntermediateDirectories: true)
        try "ftp = 240\n".write(to: config.appendingPathComponent("workout/athlete"), atomically: false, encoding: .utf8)
        let file = try workout(["check", mine], environment: environment)
        XCTAssertEqual(file.status, 0, file.stderr)
        XCTAssertEqual(file.stderr, "", "so does the athlete file")
    }

    func testCheckFailsOnAHookThatFailsWhileTheRoutineRuns() throws {
        let folder = try checkFolder("""
            return workout { name = "Mine", work(5), rest(5),
              on_segment_start = function(seg) if seg.kind == "rest" then local x = nil; x.y = 1 end end }
            """)
        let result = try workout(["check", folder.appendingPathComponent("mine.lua").path],
                                 environment: ["XDG_CONFIG_HOME": folder.appendingPathComponent("config").path])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("workout: error in on_segment_start: mine.lua:2: attempt to index a nil value"),
                      result.stderr)
        XCTAssertEqual(result.stdout, "")
    }
}
