import TestSupport
import XCTest
@testable import IntervalEngine

/// Sounds in a session on the virtual clock: which play when, the planned moments that
/// announce them, and what a player does with those.
final class SoundSessionTests: XCTestCase {
    /// Records what the listener asks of the sound server.
    final class RecordingOutput: SoundOutput {
        var isWorking = true
        var calls: [String] = []
        func schedule(_ id: UInt64, _ sound: Sound, at deadline: UInt64) {
            calls.append("schedule \(sound.name) at \(Double(deadline) / 1e9)")
        }
        func cancel(_ id: UInt64) { calls.append("cancel") }
        func play(_ sound: Sound) { calls.append("play \(sound.name)") }
        /// What `keepReady` was told, in order (apart from the sounds).
        var readiness: [Bool] = []
        func keepReady(_ ready: Bool) { readiness.append(ready) }
    }

    func testAnOpenSegmentKeepsThePlayerReadyForThePressUntilItEnds() throws {
        let harness = try Harness("""
            return workout { name = "S", countdown = 0, work(2), work { open = true, name = "Set" }, rest(2) }
            """, options: SessionOptions(bell: false, sound: true))
        let output = RecordingOutput()
        harness.session.subscribe(SoundListener(output: output) {})
        harness.session.start()
        XCTAssertEqual(output.readiness, [false], "a timed segment needs no readiness")
        output.readiness = []
        harness.clock.advance(by: 2)
        XCTAssertEqual(output.readiness, [false, true], "the open set keeps the player ready")
        output.readiness = []
        output.calls = []
        harness.clock.advance(by: 5)  // past the grace in which a second press is a bounce
        harness.session.apply(.done)
        XCTAssertEqual(output.readiness, [false, false])
        XCTAssertTrue(output.calls.contains("play rest"), "the press's rest sound plays at once: \(output.calls)")
    }

    let routine = """
        return workout { name = "S", countdown = 2, prep(3), work(3), rest(3) }
        """

    func sounds(_ harness: Harness) -> [String] {
        harness.trace.filter { $0.contains(" sound ") }
    }

    func testDefaultsPipTheCountdownAndStartEachKind() throws {
        let harness = try Harness(routine, options: SessionOptions(bell: false, sound: true))
        harness.run()
        XCTAssertEqual(sounds(harness), ["0 sound start", "1 sound pip", "2 sound pip", "3 sound go", "4 sound pip",
                                         "5 sound pip", "6 sound rest", "7 sound pip", "8 sound pip", "9 sound finish"])
        XCTAssertFalse(harness.trace.contains { $0.contains(" bell") }, "no bell where sounds play")
    }

    func testARoutineChangesAndSilencesSounds() throws {
        let harness = try Harness("""
            return workout { name = "S", countdown = 1, sounds = { countdown = false, prep = "go", rest = { hz = 300, ms = 50 },
              finish = false }, prep(2), rest(2) }
            """, options: SessionOptions(bell: false, sound: true))
        harness.run()
        XCTAssertEqual(sounds(harness), ["0 sound go", "2 sound tone"])
    }

    func testSoundEventsNameTheMomentThatAnnouncedThem() throws {
        let harness = try Harness(routine, options: SessionOptions(bell: false, sound: true))
        var planned: [UInt64: Sound] = [:]
        final class Moments: SessionListener {
            var body: (PlannedMoment) -> Void = { _ in }
            func receive(_ event: Event) {}
            func planned(_ moment: PlannedMoment) { body(moment) }
        }
        let moments = Moments()
        moments.body = { if let sound = $0.sound { planned[$0.id] = sound } }
        harness.session.subscribe(moments)
        harness.run()
        var named = 0
        for event in harness.events {
            guard case let .alert(.sound, text, .sound(alert)?) = event.kind else { continue }
            if let id = alert.moment {
                XCTAssertEqual(planned[id]?.name, text)
                named += 1
            } else {
                XCTAssertEqual(event.t, 0, "only the first segment's sound is not planned ahead")
            }
        }
        XCTAssertEqual(named, 9)
    }

    func testThePlayerSchedulesAheadCancelsWithdrawnAndPlaysTheUnplanned() throws {
        let harness = try Harness(routine, options: SessionOptions(bell: false, sound: true))
        let output = RecordingOutput()
        var rang = 0
        harness.session.subscribe(SoundListener(output: output) { rang += 1 })
        harness.session.start()
        // The first segment's start sound plays at once; its end (the go) and its pips
        // are handed over ahead with their deadlines.
        XCTAssertEqual(Set(output.calls), ["play start", "schedule go at 3.0", "schedule pip at 1.0",
                                           "schedule pip at 2.0"])
        XCTAssertEqual(output.calls.count, 4)
        output.calls = []
        harness.clock.advance(by: 1.5)
        harness.session.apply(.pause)  // the pip at 2 and the go at 3 are withdrawn
        XCTAssertEqual(output.calls.filter { $0 == "cancel" }.count, 2)
        harness.clock.advance(by: 10)
        output.calls = []
        harness.session.apply(.resume)  // planned anew, 10 s later
        XCTAssertEqual(Set(output.calls), ["schedule go at 13.0", "schedule pip at 12.0"])
        output.calls = []
        harness.session.apply(.next)  // a skip: the go nobody could plan plays at once
        XCTAssertTrue(output.calls.contains("play go"), "\(output.calls)")
        output.isWorking = false  // the server went away: the bell stands in
        harness.clock.run()
        XCTAssertEqual(rang, 6, "the work's two pips, the rest sound, the rest's two pips and the chime")
    }

    func testDryRunsAndSwitchesAreDecidedInOnePlace() {
        let environment: [String: String] = [:]
        let desktop = AlertSwitches.decide(bell: nil, sound: true, notify: false, voice: false,
                                           dryRun: false, environment: environment)
        XCTAssertTrue(desktop.sound)
        XCTAssertFalse(desktop.automaticBells, "the bell rings only where no sound plays")
        XCTAssertTrue(desktop.bellAllowed)
        let ssh = AlertSwitches.decide(bell: nil, sound: false, notify: false, voice: false,
                                       dryRun: false, environment: environment)
        XCTAssertFalse(ssh.sound)
        XCTAssertTrue(ssh.automaticBells)
        let both = AlertSwitches.decide(bell: true, sound: true, notify: false,
                                        voice: false, dryRun: false, environment: environment)
        XCTAssertTrue(both.sound && both.automaticBells)
        let quiet = AlertSwitches.decide(bell: false, sound: false, notify: false, voice: false,
                                         dryRun: false, environment: environment)
        XCTAssertFalse(quiet.sound || quiet.automaticBells || quiet.bellAllowed)
        let dry = AlertSwitches.decide(bell: nil, sound: true, notify: false, voice: false,
                                       dryRun: true, environment: environment)
        XCTAssertEqual(dry, .silent, "a dry run is silent")
    }

    func testPlainTextAddsNothingForSounds() throws {
        let harness = try Harness(routine, options: SessionOptions(bell: false, sound: true))
        harness.run()
        let lines = harness.events.compactMap(PlainText.line)
        XCTAssertEqual(lines.count, harness.events.count - 10)
        XCTAssertFalse(lines.contains { $0.contains("sound") })
        let json = harness.events.first { if case .alert(.sound, _, _) = $0.kind { true } else { false } }!.json.text
        XCTAssertEqual(json, #"{"event":"alert","t":0,"at":0,"type":"sound","text":"start"}"#)
    }
}
