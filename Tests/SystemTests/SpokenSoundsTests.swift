import Foundation
import Platform
import WorkoutValues
import XCTest
@testable import IntervalEngine

/// The `--voice` listener with the real espeak-ng and an output that records what it is
/// asked: words rendered ahead go to the player for their moment, with the moment's
/// tone; words not ready in time, or not renderable, are said aloud, never both.
final class SpokenSoundsTests: XCTestCase {
    /// What the listener asks of the player, from any thread.
    final class Output: SoundOutput, @unchecked Sendable {
        let lock = NSLock()
        var scheduled: [(id: UInt64, sound: Sound, deadline: UInt64)] = []
        var played: [Sound] = []
        var cancelled: [UInt64] = []
        var isWorking: Bool { true }
        func schedule(_ id: UInt64, _ sound: Sound, at deadline: UInt64) {
            lock.withLock { scheduled.append((id, sound, deadline)) }
        }
        func cancel(_ id: UInt64) { lock.withLock { cancelled.append(id) } }
        func play(_ sound: Sound) { lock.withLock { played.append(sound) } }
    }

    final class Said: @unchecked Sendable {
        let lock = NSLock()
        var texts: [String] = []
        var warnings: [String] = []
    }

    var output: Output!
    var said: Said!

    func listener(renderer: String? = nil) throws -> SpokenSounds {
        let espeak = try XCTUnwrap(ExecutableSearch.find("espeak-ng"), "espeak-ng is not installed (make test installs it)")
        output = Output()
        let said = Said()
        self.said = said
        return SpokenSounds(output: output, renderer: renderer ?? espeak,
                            fallback: { text in said.lock.withLock { said.texts.append(text) } },
                            warn: { text in said.lock.withLock { said.warnings.append(text) } })
    }

    /// A moment as the session plans it with `--voice`: its sound, if any, then its words.
    func moment(_ id: UInt64, _ kind: PlannedMoment.Kind, in seconds: Double, sound: Sound? = nil) -> PlannedMoment {
        var alerts: [AlertPolicy.Alert] = sound.map { [.sound($0)] } ?? []
        switch kind {
        case .countdown(let second): alerts.append(.say(String(second)))
        case .boundary(let next?, _): alerts.append(.say(next.name))
        case .announcement(let text), .cue(_, let text?): alerts.append(.say(text))
        default: break
        }
        return PlannedMoment(id: id, kind: kind, index: 1, at: 0,
                             deadline: Clocks.system.monotonic() + UInt64(seconds * 1e9), alerts: alerts)
    }

    func say(_ text: String, moment: UInt64?) -> Event {
        Event(.alert(.say, text: text, moment.map { .spoken(moment: $0) }), t: 0, fire: nil)
    }

    /// Waits (at most 10 s) for the listener's queue to do its part.
    func until(_ condition: @escaping () -> Bool) -> Bool {
        eventually(every: 0.005, condition)
    }

    func testCountdownWordsGoToThePlayerWithTheirPipAndAreNotSaidAloud() throws {
        let spoken = try listener()
        let pip = Sound.named("pip")!
        let three = moment(7, .countdown(second: 3), in: 3, sound: pip)
        spoken.planned(three)
        XCTAssertTrue(until { self.output.lock.withLock { !self.output.scheduled.isEmpty } })
        let handed = try XCTUnwrap(output.lock.withLock { output.scheduled.first })
        XCTAssertEqual(handed.id, 7, "the moment's id: it replaces the pip alone")
        XCTAssertEqual(handed.deadline, three.deadline)
        XCTAssertEqual(handed.sound.notes, pip.notes, "mixed with its pip")
        XCTAssertEqual(handed.sound.speech?.offset, 0, "on the second")
        XCTAssertGreaterThan(handed.sound.speech?.seconds ?? 0, 0.1)
        spoken.receive(say("3", moment: 7))
        // The same words again come from the cache, at once, on this thread.
        spoken.planned(moment(8, .countdown(second: 3), in: 4))
        XCTAssertEqual(output.lock.withLock { output.scheduled.map(\.id) }, [7, 8])
        spoken.withdrawn(moment(8, .countdown(second: 3), in: 4))
        XCTAssertEqual(output.lock.withLock { output.cancelled }, [8])
        XCTAssertEqual(said.lock.withLock { said.texts }, [], "nothing said aloud")
    }

    func testASegmentNameFollowsItsStartSound() throws {
        let spoken = try listener()
        let go = Sound.named("go")!
        var segment = Segment.none
        segment.name = "Squats"
        let next = SegmentSummary(segment, count: 2)
        spoken.planned(moment(3, .boundary(next: next, last: false), in: 3, sound: go))
        XCTAssertTrue(until { self.output.lock.withLock { !self.output.scheduled.isEmpty } })
        let handed = try XCTUnwrap(output.lock.withLock { output.scheduled.first })
        XCTAssertEqual(handed.sound.name, "go")
        XCTAssertEqual(handed.sound.speech?.offset ?? 0, go.seconds + 0.05, accuracy: 1e-9)
    }

    func testASegmentNameIsSaidOverALongSoundFileAfterItsFirstSecond() throws {
        let spoken = try listener()
        let gong = Sound(file: SoundFile(name: "gong.ogg", samples: [Float](repeating: 0.1, count: 8_000 * 5), rate: 8_000))
        var segment = Segment.none
        segment.name = "Squats"
        spoken.planned(moment(3, .boundary(next: SegmentSummary(segment, count: 2), last: false), in: 3, sound: gong))
        XCTAssertTrue(until { self.output.lock.withLock { !self.output.scheduled.isEmpty } })
        let handed = try XCTUnwrap(output.lock.withLock { output.scheduled.first })
        XCTAssertEqual(handed.sound.name, "gong.ogg")
        XCTAssertEqual(handed.sound.speech?.offset ?? 0, 1.05, accuracy: 1e-9, "not after the gong's 5 s")
    }

    func testWordsNotReadyInTimeAreSaidAloudOnce() throws {
        let spoken = try listener()
        // Due sooner than the player's lead: left to the fallback when it comes.
        spoken.planned(moment(5, .announcement(text: "Next: Rest"), in: 0.01))
        spoken.waitUntilIdle()
        spoken.receive(say("Next: Rest", moment: 5))
        XCTAssertEqual(output.lock.withLock { output.scheduled.count }, 0)
        XCTAssertEqual(said.lock.withLock { said.texts }, ["Next: Rest"])
    }

    func testARendererThatFailsLeavesTheWordsToTheFallbackWithOneWarning() throws {
        let spoken = try listener(renderer: "/bin/false")
        spoken.planned(moment(1, .countdown(second: 2), in: 2))
        spoken.planned(moment(2, .countdown(second: 1), in: 3))
        XCTAssertTrue(until { self.said.lock.withLock { !self.said.warnings.isEmpty } })
        spoken.receive(say("2", moment: 1))
        spoken.receive(say("-1", moment: nil))
        XCTAssertTrue(until { self.said.lock.withLock { self.said.texts.count == 2 } })
        XCTAssertEqual(said.lock.withLock { said.texts }, ["2", "-1"], "as said (the fallback keeps -1 from reading as an option)")
        XCTAssertEqual(said.lock.withLock { said.warnings }, ["espeak-ng failed (exit 1); speech is said aloud instead"])
        XCTAssertEqual(output.lock.withLock { output.scheduled.count + output.played.count }, 0)
    }

    func testWordsSaidOnTheSpotPlayWhenRendered() throws {
        let spoken = try listener()
        let hookSays = say("Well done", moment: 4)  // a hook's say() while moment 4 fires
        spoken.receive(hookSays)
        XCTAssertTrue(until { self.output.lock.withLock { !self.output.played.isEmpty } })
        XCTAssertEqual(output.lock.withLock { output.played.map(\.name) }, ["Well done"])
        XCTAssertEqual(said.lock.withLock { said.texts }, [])
    }

    /// espeak-ng reads the words on standard input: "-1" is words, not an option.
    func testWordsAreRenderedFromStandardInput() throws {
        let spoken = try listener()
        spoken.receive(say("-1", moment: nil))
        XCTAssertTrue(until { self.output.lock.withLock { !self.output.played.isEmpty } })
        XCTAssertGreaterThan(output.lock.withLock { output.played.first?.speech?.seconds ?? 0 }, 0.3, "minus one")
        XCTAssertEqual(said.lock.withLock { said.texts + said.warnings }, [])
    }

    /// A signal ends the run while texts wait to be rendered: they are dropped, and no
    /// renderer starts after the stop.
    func testOnceStoppedWhatWaitsIsNeverRendered() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("workout-render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FakeProgram.make("render", in: directory, exit: 1, then: "sleep 0.2")
        let spoken = try listener(renderer: directory.appendingPathComponent("render").path)
        for index in 1...20 {
            spoken.receive(say("word \(index)", moment: nil))
        }
        XCTAssertEqual(FakeProgram.log("render", in: directory, lines: 2).count, 2, "the first is rendering")
        spoken.stop()
        spoken.waitUntilIdle()
        XCTAssertEqual(FakeProgram.log("render", in: directory, lines: 0).count, 2, "one renderer, and none after the stop")
    }

    func testOnceStoppedNothingMoreIsPlayedOrSaid() throws {
        let spoken = try listener(renderer: "/bin/false")
        spoken.stop()
        spoken.receive(say("Bye", moment: nil))
        spoken.planned(moment(9, .countdown(second: 1), in: 2))
        // /bin/false answers in milliseconds: without the stop, the failure would be
        // warned about and "Bye" said aloud once the queue is idle.
        spoken.waitUntilIdle()
        XCTAssertEqual(said.lock.withLock { said.texts + said.warnings }, [])
        XCTAssertEqual(output.lock.withLock { output.scheduled.count + output.played.count }, 0)
    }
}
