import Foundation
import Music
import WorkoutValues
import TestSupport
import XCTest
@testable import IntervalEngine

/// When the music goes down and comes back (`MusicUnderCues`), on the virtual clock: the
/// session's planned moments and its spoken alerts against a recorder of the music's
/// changes, at exact times and with no player, bus or waiting. Real players (mpv over
/// MPRIS, other streams) are MusicTests' and MusicStreamTests'.
final class MusicUnderCuesTests: XCTestCase {
    /// The music's changes, with the virtual time each came at (repeats folded).
    @MainActor
    final class RecordingMusic: MusicLowering {
        let clock: VirtualClock
        private(set) var changes: [String] = []
        private var low = false

        init(clock: VirtualClock) { self.clock = clock }

        func lower() { change(to: true) }
        func restore() { change(to: false) }

        private func change(to lowered: Bool) {
            guard lowered != low else { return }
            low = lowered
            changes.append("\(Number.format(Number.rounded(clock.now, places: 3))) \(lowered ? "down" : "up")")
        }
    }

    /// `waited`: the run lowers the music for its opening words (`lowerForOpening`) and
    /// starts that many seconds later, once the players are down (the run waits for them).
    func run(_ source: String, voice: Bool = true, sound: Bool = false, waited: Double? = nil,
             during: (@MainActor (Harness) -> Void)? = nil) throws -> [String] {
        try MainActor.assumeIsolated { try Self.changes(source, voice: voice, sound: sound, waited: waited, during: during) }
    }

    @MainActor
    static func changes(_ source: String, voice: Bool, sound: Bool, waited: Double?,
                        during: (@MainActor (Harness) -> Void)?) throws -> [String] {
        do {
            let options = SessionOptions(alerts: AlertSwitches(bell: false, voice: voice, sound: sound))
            let harness = Harness(try load(source), options: options)
            let music = RecordingMusic(clock: harness.clock)
            let cues = MusicUnderCues(players: music, scheduler: harness.clock)
            harness.session.subscribe(cues)
            if let waited {
                XCTAssertTrue(cues.lowerForOpening(harness.session.openingAlerts), "the opening words are heard over music")
                harness.clock.advance(by: waited)
            }
            harness.session.start()
            during?(harness)
            harness.clock.run()
            XCTAssertEqual(harness.clock.pendingCount, 0, "no timer left behind")
            return music.changes
        }
    }

    /// MusicTests' routine: the name said at the start, "Halfway" a planned cue at 2 s.
    static let cueRoutine = """
        return workout { name = "Music", countdown = 0,
          sounds = { countdown = false, start = false, work = false, rest = false, finish = false },
          segment{ kind = "work", duration = 4, cues = { [2] = "Halfway" } } }
        """

    /// MusicTests' routine: the name said at the start (not planned: lowered when its
    /// event comes, for its second of words and 0.3 s after), and "Halfway" at 2 s, a
    /// planned moment: lowered 0.4 s before it, back 0.3 s after its second of words.
    func testLoweredBeforeAPlannedCueAndBackAfterIt() throws {
        let changes = try run(Self.cueRoutine)
        XCTAssertEqual(changes, ["0 down", "1.3 up", "1.6 down", "3.3 up"])
    }

    /// The name said the moment the run starts: lowered before the run starts (here 0.25 s
    /// before, as long as the players took), and it stays down through the start's words;
    /// the timers the start plans do not raise it in between.
    func testTheOpeningWordsFindTheMusicLowered() throws {
        let changes = try run(Self.cueRoutine, waited: 0.25)
        XCTAssertEqual(changes, ["0 down", "1.55 up", "1.85 down", "3.55 up"])
    }

    /// A start that says nothing over the music (voice off, pips only) lowers nothing ahead.
    func testAnOpeningWithoutWordsLowersNothingAhead() throws {
        try MainActor.assumeIsolated {
            let source = "return workout { name = \"Quiet\", countdown = 0, work(3, \"Go\") }"
            let options = SessionOptions(alerts: AlertSwitches(bell: false, voice: false, sound: true))
            let harness = Harness(try load(source), options: options)
            let music = RecordingMusic(clock: harness.clock)
            let cues = MusicUnderCues(players: music, scheduler: harness.clock)
            XCTAssertFalse(cues.lowerForOpening(harness.session.openingAlerts))
            XCTAssertEqual(music.changes, [])
        }
    }

    /// Words that take five seconds to say (72 bytes at 15 a second, and 0.3 s) keep it low that long.
    func testLongWordsKeepItLowWhileTheyAreSaid() throws {
        let changes = try run("""
            return workout { name = "Long", countdown = 0,
              sounds = { countdown = false, start = false, work = false, rest = false, finish = false },
              segment{ kind = "work", duration = 7,
                       name = "A very long name that takes the speech program five seconds or so to say" } }
            """)
        XCTAssertEqual(changes, ["0 down", "5.1 up"])
    }

    /// A countdown's numbers close together keep it low between them: "Next: B" at 5 is a
    /// dip of its own; from 0.4 s before "3" at 7 through "2", "1", the next name and its
    /// countdown's "1" it stays down, until 0.3 s after the last word.
    func testACountdownKeepsItLowBetweenItsNumbers() throws {
        let changes = try run("""
            return workout { name = "Count", countdown = 3,
              sounds = { countdown = false, start = false, work = false, rest = false, finish = false },
              segment{ kind = "work", duration = 10, name = "A" }, segment{ kind = "rest", duration = 2, name = "B" } }
            """)
        XCTAssertEqual(changes, ["0 down", "1.3 up", "4.6 down", "6.3 up", "6.6 down", "12.3 up"])
    }

    /// A pause withdraws the planned cue: its time is given back, and the music stays up
    /// until the resumed cue's own lead.
    func testAPauseGivesTheWithdrawnCuesTimeBack() throws {
        let changes = try run("""
            return workout { name = "Music", countdown = 0,
              sounds = { countdown = false, start = false, work = false, rest = false, finish = false },
              segment{ kind = "work", duration = 4, cues = { [2] = "Halfway" } } }
            """, during: { harness in
                harness.clock.advance(by: 1.7)
                harness.session.apply(.pause)
                harness.clock.advance(by: 5)
                harness.session.apply(.resume)
            })
        // Down at 1.6 for the cue at 2; the pause at 1.7 withdraws it (up); resumed at
        // 6.7 the cue comes 0.3 s later, at 7.0, so the music goes down at once.
        XCTAssertEqual(changes, ["0 down", "1.3 up", "1.6 down", "1.7 up", "6.7 down", "8.3 up"])
    }

    /// Without words or long sounds nothing is lowered: pips and start tones pass under.
    func testTonesPassUnderTheMusic() throws {
        let changes = try run("""
            return workout { name = "Tones", countdown = 3, work(3), rest(2) }
            """, voice: false, sound: true)
        // The finish at 5 (1.18 s long) only: 0.4 s before it to 0.3 s after its end.
        XCTAssertEqual(changes, ["4.6 down", "6.48 up"])
    }
}
