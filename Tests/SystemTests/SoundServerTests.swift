import Foundation
import XCTest

/// The built binary playing to a real PulseAudio server started by the test, its output
/// recorded from the sink's monitor: one sound per sound event and none else, told apart
/// by pitch, each on its planned moment.
final class SoundServerTests: XCTestCase {
    /// One server for the tests that record (starting one and letting it settle takes
    /// seconds); the test that kills its server starts its own.
    nonisolated(unsafe) static var shared: Result<PrivateSoundServer, Error>?
    var server: PrivateSoundServer!
    var scratch: URL!

    override func setUpWithError() throws {
        if Self.shared == nil { Self.shared = Result { try PrivateSoundServer() } }
        server = try Self.shared!.get()
        scratch = server.directory
    }

    override func tearDown() {
        server = nil
        super.tearDown()
    }

    /// XCTest keeps every test case, and with it the server, until the process ends:
    /// stop it here, so no pulseaudio or pacat outlives the tests.
    override class func tearDown() {
        if case .success(let server)? = shared { server.stop() }
        shared = nil
        super.tearDown()
    }

    func routine(_ source: String) throws -> String {
        let path = scratch.appendingPathComponent("sounds-\(UUID().uuidString.prefix(6)).lua")
        try source.write(to: path, atomically: false, encoding: .utf8)
        return path.path
    }

    func run(_ arguments: [String], environment: [String: String]? = nil) throws -> WorkoutBinary.Result {
        try WorkoutBinary.run(arguments, environment: environment ?? server.environment)
    }

    /// The sound events of a `--json` run: (name, planned time, first note's pitch).
    func soundEvents(_ result: WorkoutBinary.Result) throws -> [(name: String, at: Double)] {
        try result.lines.compactMap { line in
            let event = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard event["event"] as? String == "alert", event["type"] as? String == "sound" else { return nil }
            return (try XCTUnwrap(event["text"] as? String), try XCTUnwrap(event["at"] as? Double))
        }
    }

    static let pitches: [String: Double] = ["pip": 1000, "go": 1500, "rest": 880, "start": 660, "finish": 1047,
                                            "pause": 523, "resume": 392]

    func testEachSoundPlaysOnceOnItsPlannedMoment() throws {
        let path = try routine("return workout { name = \"Sounds\", countdown = 2, prep(3), work(3), rest(3) }")
        let (result, recording) = try server.record { try run(["run", path, "--json", "--no-history"]) }
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let events = try soundEvents(result)
        XCTAssertEqual(events.map(\.name), ["start", "pip", "pip", "go", "pip", "pip", "rest", "pip", "pip", "finish"])
        let onsets = recording.onsets()
        XCTAssertEqual(onsets.count, events.count, "one sound per sound event and none else: \(onsets)")
        guard onsets.count == events.count else { return }
        for (onset, event) in zip(onsets, events) {
            XCTAssertEqual(onset.hz, Self.pitches[event.name]!, accuracy: Self.pitches[event.name]! * 0.05,
                           "\(event.name) at \(event.at)")
        }
        // The first sound is asked for at the start, not planned ahead; every other one
        // lands at its planned time on one clock: the recording's start is unknown, so
        // their offsets from the plan must agree.
        let offsets = zip(onsets, events).dropFirst().map { $0.seconds - $1.at }
        XCTAssertLessThan((offsets.max()! - offsets.min()!) * 1000, 10, "offsets from the plan (s): \(offsets)")
        XCTAssertGreaterThanOrEqual(onsets[0].seconds - offsets.min()!, -0.001, "the first sound is not early")
    }

    func testAWithdrawnSoundNeverPlays() throws {
        // The cue at 0.5 s lengthens the segment: the pips planned at 1 and 2 are
        // withdrawn before they are due, and planned anew at 3 and 4.
        let path = try routine("""
            return workout { name = "Withdrawn", countdown = 2,
              segment { kind = "work", duration = 3, cues = { [0.5] = function() extend(2) end } } }
            """)
        let (result, recording) = try server.record { try run(["run", path, "--json", "--no-history"]) }
        XCTAssertEqual(result.status, 0, result.stderr)
        let events = try soundEvents(result)
        XCTAssertEqual(events.map(\.name), ["go", "pip", "pip", "finish"])
        XCTAssertEqual(events.map(\.at).dropFirst(), [3, 4, 5])
        let onsets = recording.onsets()
        XCTAssertEqual(onsets.count, 4, "\(onsets)")
        guard onsets.count == 4 else { return }
        let offset = onsets[1].seconds - 3
        XCTAssertEqual(onsets[2].seconds - offset, 4, accuracy: 0.01)
        XCTAssertEqual(onsets[3].seconds - offset, 5, accuracy: 0.01)
        XCTAssertLessThan(onsets[0].seconds - offset, 0.5, "nothing between the start and 3 s")
    }

    func testNoSoundIsSilentAndRingsTheBellInstead() throws {
        let path = try routine("return workout { name = \"Quiet\", countdown = 1, work(2) }")
        let (result, recording) = try server.record(after: 0.5) {
            try run(["run", path, "--json", "--no-history", "--no-sound"])
        }
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try soundEvents(result).count, 0)
        XCTAssertTrue(result.stdout.contains(#""type":"bell","text":"1""#), result.stdout)
        XCTAssertGreaterThan(recording.samples.count, PrivateSoundServer.rate, "the recording ran")
        XCTAssertLessThan(recording.loudest, 100)
    }

    func testNoServerGivesOneWarningAndTheBell() throws {
        let path = try routine("return workout { name = \"Nowhere\", countdown = 1, work(1.5) }")
        var environment = server.environment
        environment["PULSE_SERVER"] = "unix:" + scratch.appendingPathComponent("no-such-socket").path
        let result = try run(["run", path, "--json", "--no-history"], environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "workout: sound: no sound server answered (Connection refused); "
                                      + "the terminal bell stands in for sounds\n")
        XCTAssertEqual(try soundEvents(result).count, 0)
        XCTAssertTrue(result.stdout.contains(#""type":"bell","text":"1""#), result.stdout)
    }

    func testTheServerGoingAwayWarnsOnceAndTheTimersGoOn() throws {
        let path = try routine("return workout { name = \"Lost\", countdown = 3, work(4) }")
        let server = try PrivateSoundServer()
        let result = try WorkoutBinary.run(["run", path, "--json", "--no-history"], environment: server.environment) {
            process, output in
            var seen = Data()
            while !String(decoding: seen, as: UTF8.self).contains(#""text":"pip""#) {
                let more = output.availableData
                guard !more.isEmpty else { break }
                seen.append(more)
            }
            server.stop()
            return seen
        }
        XCTAssertEqual(result.status, 0, result.stderr)
        let warnings = result.stderr.split(separator: "\n")
        XCTAssertEqual(warnings.count, 1, result.stderr)
        XCTAssertTrue(warnings.first?.hasPrefix("workout: sound: the sound server went away") == true, result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix("the terminal bell stands in for sounds\n"), result.stderr)
        XCTAssertTrue(result.lines.first { $0.contains(#""event":"workout_end""#) }?.contains(#""completed":true"#) == true,
                      result.stdout)
        // The sound line still closes the run: the stream played until the server went.
        XCTAssertTrue(result.lines.last?.hasPrefix(#"{"event":"sound","#) == true, result.stdout)
        XCTAssertEqual(try soundEvents(result).map(\.name), ["go", "pip", "pip", "pip", "finish"])
    }

    /// In a real terminal: while the server answers, the sounds play and the terminal
    /// stays quiet; once it is gone, one warning, and the bell (BEL) rings for every
    /// countdown second and the finish from then on.
    func testOnceTheServerIsGoneTheTerminalBellRings() throws {
        // The server goes about a second after the display shows the workout, well before
        // the first countdown second (7 s): with the work 6 s long, the first came at 3 s,
        // and under the sanitizer beside the lane's load the server went after it once
        // (that second played through the server, and three bells rang, not four).
        let path = try routine("return workout { name = \"Lost\", countdown = 3, work(10) }")
        let server = try PrivateSoundServer()
        // The shell stays after the workout, so the pane (and what it recorded) does too.
        let pane = try TmuxPane(command: ["env", "LANG=C.UTF-8", "DBUS_SESSION_BUS_ADDRESS="]
                                + server.environment.map { "\($0)=\($1)" }
                                + ["bash", "--norc", "--noprofile", "-c",
                                   "'\(WorkoutBinary.binary)' run '\(path)' --no-history --no-flash; echo ENDED; sleep 60"])
        try pane.record()
        XCTAssertTrue(pane.wait { pane.text.contains("Lost") }, "the display shows the workout:\n\(pane.text)")
        XCTAssertFalse(pane.wait(timeout: 1) { pane.output.contains("\u{07}") }, "no bell while the sounds play")
        let before = pane.output
        server.stop()
        XCTAssertTrue(pane.wait(timeout: 15) { pane.text.contains("ENDED") }, pane.text)
        XCTAssertTrue(pane.wait { pane.output.filter { $0 == "\u{07}" }.count >= 4 }, "the bell stands in")
        let after = String(pane.output.dropFirst(before.count))
        XCTAssertEqual(after.filter { $0 == "\u{07}" }.count, 4, "three countdown seconds and the finish")
        // Shown on the display while it runs, then left on the screen below the summary.
        XCTAssertEqual(pane.text.components(separatedBy: "workout: sound: the sound server went away").count, 2,
                       "one warning:\n\(pane.text)")
    }

    func testSoundCheckPlaysEverySoundOnceWithItsName() throws {
        let (result, recording) = try server.record { try run(["sound-check", "--volume", "50"]) }
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines.map { String($0.prefix(while: { $0 != " " })) },
                       ["pip", "go", "rest", "start", "finish", "pause", "resume"])
        let onsets = recording.onsets()
        XCTAssertEqual(onsets.count, 7, "\(onsets)")
        guard onsets.count == 7 else { return }
        for (onset, name) in zip(onsets, result.lines.map { String($0.prefix(while: { $0 != " " })) }) {
            XCTAssertEqual(onset.hz, Self.pitches[name]!, accuracy: Self.pitches[name]! * 0.05, name)
        }
        for (earlier, later) in zip(onsets, onsets.dropFirst()) {
            XCTAssertEqual(later.seconds - earlier.seconds, 1.6, accuracy: 0.01)
        }
        XCTAssertLessThan(recording.loudest, 32_767 * 6 / 10, "--volume 50")
        XCTAssertGreaterThan(recording.loudest, 32_767 * 4 / 10)
        let missing = try run(["sound-check"], environment: ["PULSE_SERVER": "unix:/nonexistent/socket"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "workout: sound-check: no sound server answered (Connection refused)\n")
    }
}
