import Foundation
import XCTest

/// Sound files a routine names, played by the built binary into the test's own
/// PulseAudio server and recorded from its monitor: each on its planned second, beside
/// the tones of the same run, and `sound-check ROUTINE` playing them with their names.
extension SoundServerTests {
    /// A sine of `hz` made by sox beside the routines (its format from the name).
    func soundFile(_ name: String, hz: Int, seconds: Double, rate: Int) throws {
        let sox = "/usr/bin/sox"
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: sox), "sox is not installed (make test installs it)")
        let made = try spawn(sox, ["-n", "-r", "\(rate)", "-c", "2", scratch.appendingPathComponent(name).path,
                                   "synth", "\(seconds)", "sine", "\(hz)", "vol", "0.5"])
        XCTAssertEqual(made.status, 0, "sox made \(name)")
    }

    func testFileSoundsPlayOnTheirPlannedSecondBesideTheTones() throws {
        // Ogg Vorbis at 44.1 kHz (converted to the sink's 48 kHz) for work, FLAC at 48 kHz
        // at 0.8 for rest; the countdown's pips and the finish chime stay tones.
        try soundFile("work-700.ogg", hz: 700, seconds: 0.4, rate: 44_100)
        try soundFile("rest-1200.flac", hz: 1200, seconds: 0.4, rate: 48_000)
        let path = try routine("""
            return workout { name = "Files", countdown = 1,
              sounds = { work = "work-700.ogg", rest = { file = "rest-1200.flac", volume = 0.8 } },
              prep(2), work(2), rest(2) }
            """)
        let (result, recording) = try server.record { try run(["run", path, "--json", "--no-history"]) }
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let events = try soundEvents(result)
        XCTAssertEqual(events.map(\.name), ["start", "pip", "work-700.ogg", "pip", "rest-1200.flac", "pip", "finish"])
        XCTAssertEqual(events.map(\.at).dropFirst(), [1, 2, 3, 4, 5, 6], "the first is asked for at the start")
        let pitches = ["start": 660.0, "pip": 1000, "work-700.ogg": 700, "rest-1200.flac": 1200, "finish": 1047]
        let onsets = recording.onsets()
        XCTAssertEqual(onsets.count, events.count, "one sound per sound event and none else: \(onsets)")
        guard onsets.count == events.count else { return }
        for (onset, event) in zip(onsets, events) {
            XCTAssertEqual(onset.hz, pitches[event.name]!, accuracy: pitches[event.name]! * 0.05, "\(event.name) at \(event.at)")
        }
        // Every planned sound, file or tone, lands on its second on one clock: their
        // offsets from the plan agree to within the tones' own spread.
        let offsets = zip(onsets, events).dropFirst().map { $0.seconds - $1.at }
        XCTAssertLessThan((offsets.max()! - offsets.min()!) * 1000, 10, "offsets from the plan (s): \(offsets)")
    }

    func testSoundCheckOfARoutinePlaysItsFilesWithTheirNames() throws {
        try soundFile("gong-500.wav", hz: 500, seconds: 0.3, rate: 22_050)
        let path = try routine("return workout { name = \"Gong\", sounds = { rest = \"gong-500.wav\" }, work(1), rest(1) }")
        let (result, recording) = try server.record { try run(["sound-check", path]) }
        XCTAssertEqual(result.status, 0, result.stderr)
        let names = result.lines.map { String($0.prefix(while: { $0 != " " })) }
        XCTAssertEqual(names, ["pip", "go", "rest", "start", "finish", "pause", "resume", "gong-500.wav"])
        let onsets = recording.onsets()
        XCTAssertEqual(onsets.count, 8, "\(onsets)")
        guard onsets.count == 8 else { return }
        XCTAssertEqual(onsets[7].hz, 500, accuracy: 25, "the file plays last")
        XCTAssertEqual(onsets[7].seconds - onsets[6].seconds, 1.6, accuracy: 0.01)
        // A file that cannot be played is said before anything plays.
        let bad = try routine("return workout { name = \"Bad\", sounds = { rest = \"missing.ogg\" }, work(1) }")
        let refused = try run(["sound-check", bad])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains(":1: workout: sounds.rest: sound file \"missing.ogg\" is neither beside the routine"),
                      refused.stderr)
        XCTAssertEqual(refused.lines, [])
    }
}
