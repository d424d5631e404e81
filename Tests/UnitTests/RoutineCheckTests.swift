import TestSupport
import XCTest
@testable import IntervalEngine
@testable import LuaBridge

/// `workout check`'s run on the virtual clock: what shows only while a routine runs.
final class RoutineCheckTests: XCTestCase {
    func testAnUndeclaredSoundIsAWarningNamingItsLineOnceAndADeclaredOneIsNot() throws {
        let routine = try load("""
            return workout { name = "S", countdown = 0, sound_files = { "knock.ogg" },
              work(1), rest(1), work(1),
              on_segment_start = function()
                sound("knock.ogg")
                sound("whistle.wav")
              end }
            """)
        let check = RoutineCheck.run(routine, ftp: nil)
        XCTAssertEqual(check.warnings, [
            #"test.lua:5: sound("whistle.wav") plays a file the routine does not name in sounds or sound_files, "#
                + #"so it is not heard; add it to sound_files = { "whistle.wav" }"#,
        ], "once, though the hook ran three times; knock.ogg is named")
        XCTAssertEqual(check.errors, [])
    }

    func testAPercentTargetWithoutAnFTPIsOneWarningNamingTheFirstSegment() throws {
        let source = """
            return workout { name = "P", countdown = 0,
              work(60, "Warm", { watts = 150 }),
              work(60, "Threshold", { power = 95 }),
              rest(60, "Easy", { power = { low = 50, high = 60 }, ramp = true }),
              work(60, "Both", { power = 100, watts = 250 }),
              work(60, "Free", { power = 100, freeride = true }),
              segment{ kind = "work", name = "Over", duration = 60, info = { power = 105 } } }
            """
        XCTAssertEqual(RoutineCheck.run(try load(source), ftp: nil).warnings, [
            #"test.lua:3: segment 2 "Threshold" (and 2 more segments after it) has power = 95 (percent of FTP) "#
                + "but no FTP is set, so a trainer gets no power target there; give it watts = … instead, "
                + "or set ftp = … (--set ftp=250, or ftp = 250 in the athlete file ~/.config/workout/athlete)",
        ])
        XCTAssertEqual(RoutineCheck.run(try load(source), ftp: 250).warnings, [], "an FTP turns percent into watts")
        let one = try load(#"return workout { name = "P", rest(60, "Easy", { power = { low = 50, high = 60 } }) }"#)
        XCTAssertEqual(RoutineCheck.run(one, ftp: nil).warnings.map { String($0.prefix(73)) },
                       [#"test.lua:1: segment 1 "Easy" has power = { low = 50, high = 60 } (percent"#])
    }

    func testAHookThatFailsOrARunThatCannotEndIsAnError() throws {
        let failing = try load("""
            return workout { name = "F", work(1),
              on_finish = function() error("boom") end }
            """)
        let check = RoutineCheck.run(failing, ftp: nil)
        XCTAssertEqual(check.errors.count, 1, "\(check.errors)")
        XCTAssertTrue(check.errors.first?.hasPrefix("error in on_finish: test.lua:2: boom") == true, "\(check.errors)")

        let pausing = try load(#"return workout { name = "P", work(5), on_resume = function() pause() end, on_segment_start = function() pause() end }"#)
        XCTAssertEqual(RoutineCheck.run(pausing, ftp: nil).errors,
                       ["the dry run paused again on each resume (a hook calls pause() in on_resume?); stopped"])

        let open = try load(#"return workout { name = "O", countdown = 0, work{ name = "Set", open = true, expect = 40 } }"#)
        XCTAssertEqual(RoutineCheck.run(open, ftp: nil).errors, [], "the stand-in athlete ends an expected open segment")
    }
}
