import Foundation
import XCTest

/// `--voice` through the sound player: with espeak-ng, the countdown's words are rendered
/// ahead and land on their seconds, recorded from the private server, and spd-say never
/// runs; without espeak-ng (or without sound), spd-say says them as before. spd-say is a
/// fake on PATH that logs its arguments.
extension SoundServerTests {
    /// Tones off, so what the recording hears is the words.
    static let voiceRoutine = """
        return workout { name = "Voice", countdown = 3,
          sounds = { countdown = false, start = false, work = false, rest = false, finish = false }, work(5) }
        """

    /// A directory holding only a fake spd-say that logs its arguments.
    func fakeSpdSay() throws -> URL {
        let directory = scratch.appendingPathComponent("bin-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FakeProgram.make("spd-say", in: directory)
        return directory
    }

    func spoken(_ directory: URL, lines count: Int) -> [String] {
        FakeProgram.log("spd-say", in: directory, lines: count)
    }

    /// The say events of a `--json` run: (text, planned time if a timer said it).
    func sayEvents(_ result: WorkoutBinary.Result) throws -> [(text: String, at: Double?)] {
        try result.lines.compactMap { line in
            let event = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard event["event"] as? String == "alert", event["type"] as? String == "say" else { return nil }
            return (try XCTUnwrap(event["text"] as? String), event["at"] as? Double)
        }
    }

    func testWithEspeakTheSpokenCountdownLandsOnTheSeconds() throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: "/usr/bin/espeak-ng"),
                      "espeak-ng is not installed (make test installs it)")
        let path = try routine(Self.voiceRoutine)
        let bin = try fakeSpdSay()
        var environment = server.environment
        environment["PATH"] = bin.path + ":/usr/bin:/bin"
        environment["DBUS_SESSION_BUS_ADDRESS"] = ""
        let (result, recording) = try server.record {
            try run(["run", path, "--json", "--no-history", "--voice"], environment: environment)
        }
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let events = try sayEvents(result)
        XCTAssertEqual(events.map(\.text), ["Work", "3", "2", "1"])
        // A word's syllables are closer together than 0.3 s; the words are a second apart.
        // The threshold is low: "three" starts with a soft "th", which is its start.
        let onsets = recording.onsets(threshold: 200, gap: 0.3)
        XCTAssertEqual(onsets.count, 4, "one sound per word and none else: \(onsets)")
        guard onsets.count == 4, events.count == 4 else { return }
        let countdown = zip(onsets, events).dropFirst()
        let offsets = countdown.map { $0.seconds - $1.at! }
        XCTAssertLessThan((offsets.max()! - offsets.min()!) * 1000, 10, "offsets from the plan (s): \(offsets)")
        for (onset, event) in countdown {
            // Words, not a click: sound for at least 0.15 s after the onset.
            let start = Int(onset.seconds * Double(recording.rate))
            let window = recording.samples[start..<min(recording.samples.count, start + recording.rate * 6 / 10)]
            let lastLoud = window.lastIndex { abs(Int($0)) > 1_000 } ?? start
            XCTAssertGreaterThan(Double(lastLoud - start) / Double(recording.rate), 0.15, "the word \(event.text)")
        }
        XCTAssertEqual(spoken(bin, lines: 0), [], "spd-say never ran")
    }

    func testWithoutEspeakOrWithoutSoundSpdSaySpeaks() throws {
        let path = try routine(Self.voiceRoutine)
        let noEspeak = try fakeSpdSay()
        var environment = server.environment
        environment["PATH"] = noEspeak.path
        environment["DBUS_SESSION_BUS_ADDRESS"] = ""
        let (result, recording) = try server.record(after: 0.5) {
            try run(["run", path, "--json", "--no-history", "--voice"], environment: environment)
        }
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(spoken(noEspeak, lines: 4), ["Work", "3", "2", "1"])
        XCTAssertLessThan(recording.loudest, 100, "nothing through the sound server")

        let noSound = try fakeSpdSay()
        environment["PATH"] = noSound.path + ":/usr/bin:/bin"
        let quiet = try run(["run", path, "--json", "--no-history", "--voice", "--no-sound", "--speed", "5"],
                            environment: environment)
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertEqual(spoken(noSound, lines: 4), ["Work", "3", "2", "1"])
    }
}
