import SoundPlayer
import TestSupport
import XCTest
@testable import IntervalEngine

/// What a routine's hooks may ask to be heard, on the virtual clock: sounds and texts
/// per call of a hook, what may wait in all, the length of a text; each past its bound a
/// hook error naming the line. And the player's side: each distinct sound rendered once.
final class HeardLimitsTests: XCTestCase {
    func errors(_ harness: Harness) -> [String] {
        harness.events.compactMap { if case let .error(message, _, _) = $0.kind { message } else { nil } }
    }

    func sounds(_ harness: Harness) -> [String] {
        harness.trace.filter { $0.contains(" sound ") }
    }

    func testOneCallOfAHookPlaysAtMostSixteenSoundsAndAnotherCallCountsAnew() throws {
        let harness = try Harness("""
            return workout { name = "S", countdown = 0, work(1), work(1),
              on_segment_start = function(seg)
                for i = 1, 8 do sound("pip") end
                for i = 1, 8 do tone{ hz = 440 + i, ms = 10 } end
                if seg.index == 2 then
                  sound("go")
                end
              end }
            """)
        harness.run()
        XCTAssertEqual(sounds(harness).count, 32, "16 in each call")
        XCTAssertEqual(errors(harness), [
            "test.lua:6: sound: one call of a hook may play at most 16 sounds (sound() and tone{} together)",
        ])
    }

    func testAnInnerCallCountsItsOwnAndTheOuterGoesOnFromWhereItWas() throws {
        // skip() from a cue ends the segment at once: on_segment_end runs inside the cue.
        let harness = try Harness("""
            return workout { name = "S", countdown = 0,
              segment { kind = "work", duration = 5, cues = { [1] = function()
                for i = 1, 10 do sound("pip") end
                skip()
                for i = 1, 7 do sound("pip") end
              end } },
              work(5),
              on_segment_end = function() for i = 1, 16 do sound("rest") end end }
            """)
        harness.run()
        XCTAssertEqual(sounds(harness).filter { $0.hasSuffix(" rest") }.count, 32, "16 at each segment's end")
        XCTAssertEqual(sounds(harness).filter { $0.hasSuffix(" pip") }.count, 16)
        XCTAssertEqual(errors(harness), [
            "test.lua:5: sound: one call of a hook may play at most 16 sounds (sound() and tone{} together)",
        ])
    }

    func testAtMostAMinuteOfTheHooksSoundsWaitsAtOnce() throws {
        // Twelve 5 s tones at 0 s make a minute; nothing more fits until they have played.
        let harness = try Harness("""
            return workout { name = "S", countdown = 0,
              segment { kind = "work", duration = 10, cues = {
                [0] = function() for i = 1, 12 do tone{ hz = 440, ms = 5000 } end end,
                [1] = function() tone{ hz = 880, ms = 100 } end,
                [5] = function() tone{ hz = 660, ms = 5000 } end,
              } } }
            """)
        harness.run()
        XCTAssertEqual(sounds(harness), Array(repeating: "0 sound tone", count: 12) + ["5 sound tone"])
        XCTAssertEqual(errors(harness), [
            "test.lua:4: tone: 60 s of the hooks' sounds are waiting or playing, and this one lasts 0.1 s; "
                + "at most 60 s may wait at once",
        ])
    }

    func testSayIsBoundedByLengthPerCallAndInAll() throws {
        let long = try Harness("""
            return workout { name = "S", countdown = 0, work(1),
              on_segment_start = function() say(string.rep("word ", 26215) .. "ab") end }
            """)
        long.run()
        XCTAssertEqual(errors(long), [
            "test.lua:2: say: text is 131077 bytes; a text to say may be at most 500 bytes (about half a minute of speech)",
        ])
        let many = try Harness("""
            return workout { name = "S", countdown = 0, work(1),
              on_segment_start = function() for i = 1, 3000 do say("word number " .. i .. " of many") end end }
            """)
        many.run()
        XCTAssertEqual(many.trace.filter { $0.contains(" say ") }.count, 16)
        XCTAssertEqual(errors(many), ["test.lua:2: say: one call of a hook may say at most 16 texts"])
        // 250 bytes take about 16.7 s to say: three fit in a minute, a fourth waits for
        // the first to be said.
        let waiting = try Harness("""
            local text = string.rep("x", 250)
            return workout { name = "S", countdown = 0,
              segment { kind = "work", duration = 30, cues = {
                [0] = function() say(text) say(text) end,
                [1] = function() say(text) end,
                [2] = function() say(text) end,
                [17] = function() say(text) end,
              } } }
            """)
        waiting.run()
        XCTAssertEqual(waiting.trace.filter { $0.contains(" say ") }.map { $0.prefix { $0 != " " } },
                       ["0", "0", "1", "17"])
        XCTAssertEqual(errors(waiting), [
            "test.lua:6: say: about 50 s of the hooks' speech is waiting or being said, and this text takes about "
                + "16.7 s; at most 60 s may wait at once",
        ])
    }

    func testTextsTheSessionSaysByItselfAreCutAtACharactersEnd() {
        XCTAssertEqual(HeardLimits.cut("Next: Rest"), "Next: Rest")
        let name = String(repeating: "é", count: 300)  // 600 bytes
        XCTAssertEqual(HeardLimits.cut(name), String(repeating: "é", count: 250))
        XCTAssertEqual(HeardLimits.cut("a" + name).utf8.count, 499, "never half a character")
    }

    func testEachDistinctSoundIsRenderedOnceAndWhatIsKeptIsBounded() {
        var rendered = RenderedSounds(Synthesizer(sampleRate: 48_000, volume: 1))
        let tone = Sound(name: "tone", notes: [Note(hz: 440, seconds: 5)])
        let first = rendered.samples(tone)
        let second = rendered.samples(tone)
        XCTAssertEqual(first.count, 240_000)
        XCTAssertEqual(first.withUnsafeBufferPointer { $0.baseAddress }, second.withUnsafeBufferPointer { $0.baseAddress },
                       "the same samples, shared")
        XCTAssertEqual(rendered.count, 240_000)
        for hz in 0..<30 {
            _ = rendered.samples(Sound(name: "tone", notes: [Note(hz: 200 + Double(hz), seconds: 5)]))
        }
        XCTAssertLessThanOrEqual(rendered.count, RenderedSounds.keptSamples)
        XCTAssertEqual(rendered.count, 12 * 240_000, "the most recent that fit")
        let long = Sound(name: "words", notes: [], speech: Speech(samples: Array(repeating: 0.1, count: 4_000_000),
                                                                   rate: 48_000))
        XCTAssertEqual(rendered.samples(long).count, 4_000_000)
        XCTAssertEqual(rendered.count, 12 * 240_000, "one longer than the bound is never kept")
    }
}
