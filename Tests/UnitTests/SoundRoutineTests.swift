import WorkoutValues
import TestSupport
import XCTest
@testable import IntervalEngine

/// `sound()`, `tone{}` and `workout{ sounds = … }` as a routine writes them, and the
/// errors it meets, each naming its line.
final class SoundRoutineTests: XCTestCase {
    func testHooksPlaySoundsAndTonesAsEvents() throws {
        let harness = try Harness("""
            return workout { name = "S", countdown = 0, work(2),
              on_segment_start = function(seg)
                sound("finish")
                tone{ hz = 440, ms = 100 }
                tone{ { hz = 440, ms = 100 }, { hz = 880, ms = 200, volume = 0.5 } }
              end }
            """)
        var played: [Sound] = []
        harness.session.subscribe { event in
            if case let .alert(.sound, _, .sound(alert)?) = event.kind { played.append(alert.sound) }
        }
        harness.run()
        XCTAssertEqual(played.map(\.name), ["finish", "tone", "tone"])
        XCTAssertEqual(played[1].notes, [Note(hz: 440, seconds: 0.1)])
        XCTAssertEqual(played[2].notes, [Note(hz: 440, seconds: 0.1), Note(hz: 880, seconds: 0.2, volume: 0.5)])
    }

    func testAnUnknownSoundOrAToneOutOfRangeIsAHookErrorNamingTheLine() throws {
        let harness = try Harness("""
            return workout { name = "S", countdown = 0, work(1), work(1),
              on_segment_start = function(seg)
                if seg.index == 1 then sound("boop") end
                tone{ hz = 440, ms = 100000 }
              end }
            """)
        var messages: [String] = []
        harness.session.subscribe { if case let .error(message, _, _) = $0.kind { messages.append(message) } }
        harness.run()
        XCTAssertEqual(messages, [
            #"test.lua:3: sound: unknown sound "boop" (the sounds are pip, go, rest, start, finish, pause, resume, or a sound file's name with its extension, such as "gong.ogg")"#,
        ], "the hook is switched off after its first error")
        let tone = try Harness("""
            return workout { name = "S", countdown = 0, work(1), on_segment_start = function() tone{ hz = 440, ms = 100000 } end }
            """)
        tone.run()
        XCTAssertTrue(tone.trace.contains("0 error on_segment_start"))
        let error = tone.events.compactMap { if case let .error(message, _, _) = $0.kind { message } else { nil } }
        XCTAssertEqual(error, ["test.lua:1: tone: ms must be a number from 10 to 5000, got 100000"])
    }

    func testTheSoundsTableIsCheckedAtLoad() {
        XCTAssertEqual(loadError(#"return workout { name = "S", sounds = { work = "boop" }, work(1) }"#),
                       #"test.lua:1: workout: unknown sound "boop" (the sounds are pip, go, rest, start, finish, pause, resume, or a sound file's name with its extension, such as "gong.ogg")"#)
        XCTAssertEqual(loadError("return workout { name = \"S\",\n sounds = { rest = { hz = 440 } }, work(1) }"),
                       "test.lua:1: workout: sounds.rest has no ms (its length, e.g. ms = 150)")
        XCTAssertEqual(loadError(#"return workout { name = "S", sounds = { finish = true }, work(1) }"#),
                       "test.lua:1: workout: sounds.finish must be a sound's or a file's name, { file = … }, a note, a list of notes or false, got true")
        XCTAssertEqual(loadError(#"return workout { name = "S", sounds = { work = { hz = 5, ms = 100 } }, work(1) }"#),
                       "test.lua:1: workout: hz must be a number from 20 to 20000, got 5")
        XCTAssertEqual(loadError(#"sound("go") return workout { name = "S", work(1) }"#),
                       "test.lua:1: sound: only works while the workout runs (call it from a hook or a cue)")
    }

    func testTheSoundsTableSetsMomentsAndKinds() throws {
        let routine = try load("""
            return workout { name = "S", sounds = { countdown = "go", sprint = { { hz = 700, ms = 50 } }, work = false,
              start = "rest", pause = "pause" }, work(1) }
            """)
        XCTAssertEqual(routine.sounds.countdown?.name, "go")
        XCTAssertEqual(routine.sounds.start(of: "sprint")?.notes, [Note(hz: 700, seconds: 0.05)])
        XCTAssertNil(routine.sounds.start(of: "work"))
        XCTAssertEqual(routine.sounds.start(of: "cooldown")?.name, "rest")
        XCTAssertEqual(routine.sounds.start(of: "rest")?.name, "rest")
        XCTAssertEqual(routine.sounds.pause?.name, "pause")
        XCTAssertNil(routine.sounds.resume)
        XCTAssertEqual(routine.sounds.finish?.name, "finish")
    }

    func testFilesNamedInSoundsAndSoundFilesAreCheckedAtLoad() {
        XCTAssertEqual(loadError("return workout { name = \"S\",\n sounds = { rest = { file = \"gong.ogg\", volume = 2 } }, work(1) }"),
                       "test.lua:1: workout: sounds.rest.volume must be a number from 0 to 1, got 2")
        XCTAssertEqual(loadError(#"return workout { name = "S", sounds = { rest = { file = 3 } }, work(1) }"#),
                       "test.lua:1: workout: sounds.rest.file must be a sound file's name, got 3")
        XCTAssertEqual(loadError(#"return workout { name = "S", sounds = { rest = { file = "g.ogg", hz = 3 } }, work(1) }"#),
                       "test.lua:1: workout: unknown field 'hz' (expected file, volume)")
        XCTAssertEqual(loadError(#"return workout { name = "S", sound_files = { "a.ogg", 3 }, work(1) }"#),
                       "test.lua:1: workout: sound_files[2] must be a sound file's name, got 3")
        XCTAssertEqual(loadError(#"return workout { name = "S", sound_files = "a.ogg", work(1) }"#),
                       "test.lua:1: workout: sound_files must be a table, got \"a.ogg\"")
        XCTAssertEqual(loadError("return workout { name = \"S\", sounds = { rest = \"a\\27.ogg\" }, work(1) }"),
                       #"test.lua:1: workout: sounds.rest must be a file's name without control characters, got "a\27.ogg""#)
    }

    func testAHookPlaysTheFilesTheRoutineNamedAndSaysWhyAnotherIsNotHeard() throws {
        // A routine given as text reads no file: the names are kept, the sounds are silent.
        let harness = try Harness("""
            return workout { name = "S", countdown = 0, sound_files = { "knock.ogg" },
              sounds = { finish = { file = "applause.flac", volume = 0.5 } }, work(1),
              on_segment_start = function()
                sound("knock.ogg"); sound("applause.flac")
                sound("whistle.wav")
              end }
            """, options: SessionOptions(bell: false, sound: true))
        harness.run()
        XCTAssertEqual(harness.trace.filter { $0.contains(" sound ") }, [
            "0 sound knock.ogg", "0 sound applause.flac",
            "0 sound whistle.wav: not heard, test.lua:5 plays a file the routine does not name in sounds or sound_files",
            "0 sound go", "1 sound applause.flac",
        ])
        let unheard = harness.events.compactMap { event -> AlertDetail? in
            guard case let .alert(.sound, text, detail) = event.kind, text.hasPrefix("whistle") else { return nil }
            return detail
        }
        XCTAssertEqual(unheard, [.unheard], "no player plays it, and no bell stands in")
        // The plain lines and the message line say so; a sound that plays shows nothing.
        let lines = harness.events.compactMap(PlainText.line).filter { $0.contains("sound") }
        XCTAssertEqual(lines, ["0:00.0  sound: whistle.wav: not heard, test.lua:5 plays a file the routine does not name "
                               + "in sounds or sound_files"])
        let messages = harness.events.compactMap { SessionMessage.text(of: $0.kind) }
        XCTAssertEqual(messages.map(\.0), [
            "whistle.wav: not heard, test.lua:5 plays a file the routine does not name in sounds or sound_files",
        ])
        XCTAssertEqual(harness.session.routine.sounds.finish?.fileVolume, 0.5)
        XCTAssertTrue(harness.trace.allSatisfy { !$0.contains("error") }, "\(harness.trace)")
    }
}
