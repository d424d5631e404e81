import Foundation
import XCTest

/// `run --music` at the sound server, for music no MPRIS volume reaches: mpv playing to a
/// private sound server (PulseAudio, or PipeWire through pipewire-pulse) without its MPRIS
/// script, as a browser tab or Spotify's client would be heard. Its stream (sink input) is
/// read with `pactl`: a fake spd-say notes its volume at the moment each word is said.
final class MusicStreamTests: XCTestCase {
    var server: PrivateSoundServer!
    var music: PrivateMusicPlayer!
    var scratch: URL!

    func start(_ kind: PrivateSoundServer.Kind, mpris: Bool = false) throws {
        server = try PrivateSoundServer(kind)
        music = try PrivateMusicPlayer(volume: 0.9, mpris: mpris, soundServer: server.environment)
        scratch = music.directory.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let pactl = "PULSE_SERVER='\(server.address)' /usr/bin/pactl list sink-inputs"
        try FakeProgram.make("spd-say", in: scratch, then: "\(pactl) >> \"$0.streams\"; echo --- >> \"$0.streams\"")
        XCTAssertTrue(try eventually { try musicDecibels() != nil }, "mpv's stream never reached the server")
    }

    override func tearDown() {
        music?.stop()
        server?.stop()
        music = nil
        server = nil
    }

    var environment: [String: String] {
        var environment = server.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = music.environment["DBUS_SESSION_BUS_ADDRESS"]
        environment["PATH"] = scratch.path + ":/usr/bin:/bin"
        environment["XDG_STATE_HOME"] = scratch.appendingPathComponent("state").path
        return environment
    }

    var notePath: String { scratch.appendingPathComponent("state/workout/music-lowered.json").path }

    func run(_ source: String, _ options: [String] = []) throws -> BackgroundRun {
        let path = scratch.appendingPathComponent("music-\(UUID().uuidString.prefix(6)).lua")
        try source.write(to: path, atomically: false, encoding: .utf8)
        return try BackgroundRun(WorkoutBinary.binary, ["run", path.path, "--json", "--no-history", "--no-sound",
                                                        "--no-notify", "--voice"] + options,
                                 environment: environment, in: scratch)
    }

    /// A third of the amplitude, as `pactl` shows it.
    static let third = 20 * log10(1.0 / 3)

    /// mpv's stream's volume in dB (its first channel), from `pactl list sink-inputs`.
    func musicDecibels() throws -> Double? {
        Self.decibels(in: try server.pactl(["list", "sink-inputs"]), of: music.process)
    }

    /// In `pactl list sink-inputs` text, the volume of the stream whose process is
    /// `process` ("Volume: front-left: 65536 / 100% / 0.00 dB, …").
    static func decibels(in text: String, of process: pid_t?) -> Double? {
        guard let process else { return nil }
        for block in text.components(separatedBy: "Sink Input #").dropFirst()
        where block.contains("application.process.id = \"\(process)\"") {
            guard let line = block.split(separator: "\n").first(where: { $0.contains("Volume:") && $0.contains("dB") }),
                  let part = line.split(separator: "/").dropFirst(2).first else { return nil }
            let number = part.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) ?? ""
            return number == "-inf" ? -.infinity : Double(number)
        }
        return nil
    }

    func assertLowered(_ decibels: Double?, _ message: String, line: UInt = #line) {
        guard let decibels else { return XCTFail("no stream: \(message)", line: line) }
        XCTAssertEqual(decibels, Self.third, accuracy: 0.3, message, line: line)
    }

    /// The music's volume at each word the fake spd-say was given.
    func heardAtWords() -> [Double?] {
        let text = (try? String(contentsOf: scratch.appendingPathComponent("spd-say.streams"), encoding: .utf8)) ?? ""
        return text.components(separatedBy: "---\n").dropLast().map { Self.decibels(in: $0, of: music.process) }
    }

    func assertLoweredUnderEachCueAndBackAfter(_ kind: PrivateSoundServer.Kind) throws {
        try start(kind)
        let before = try XCTUnwrap(try musicDecibels())
        let workout = try run(MusicTests.cueRoutine)
        XCTAssertEqual(workout.wait(), 0, workout.stderr)
        XCTAssertEqual(FakeProgram.log("spd-say", in: scratch, lines: 2), ["Work", "Halfway"])
        let heard = heardAtWords()
        XCTAssertEqual(heard.count, 2)
        for decibels in heard { assertLowered(decibels, "\(kind): the music under each word: \(heard)") }
        XCTAssertTrue(try eventually { try musicDecibels() == before }, "\(kind): back after: \(String(describing: try? musicDecibels()))")
        XCTAssertFalse(FileManager.default.fileExists(atPath: notePath), "no note is left")
    }

    func testOnPulseAudioAStreamWithoutMPRISIsLoweredUnderEachCueAndComesBack() throws {
        try assertLoweredUnderEachCueAndBackAfter(.pulseaudio)
    }

    func testOnPipeWireAStreamWithoutMPRISIsLoweredUnderEachCueAndComesBack() throws {
        try assertLoweredUnderEachCueAndBackAfter(.pipewire)
    }

    func testAStreamTheUserTurnsDownDuringACueKeepsTheUsersVolume() throws {
        try assertAStreamTheUserTurnsDownDuringACueKeepsTheUsersVolume(.pulseaudio)
    }

    func testOnPipeWireAStreamTheUserTurnsDownDuringACueKeepsTheUsersVolume() throws {
        try assertAStreamTheUserTurnsDownDuringACueKeepsTheUsersVolume(.pipewire)
    }

    func assertAStreamTheUserTurnsDownDuringACueKeepsTheUsersVolume(_ kind: PrivateSoundServer.Kind) throws {
        try start(kind)
        let workout = try run(MusicTests.longCueRoutine)
        XCTAssertTrue(try eventually { try musicDecibels().map { abs($0 - Self.third) < 0.3 } ?? false }, "lowered")
        let index = try XCTUnwrap(try streamIndex())
        _ = try server.pactl(["set-sink-input-volume", "\(index)", "50%"])
        XCTAssertEqual(workout.wait(), 0, workout.stderr)
        let decibels = try XCTUnwrap(try musicDecibels())
        XCTAssertEqual(decibels, 20 * log10(0.125), accuracy: 0.3, "\(kind): 50% as the user set it (pactl's cubic scale)")
    }

    func testSigtermInTheMiddleOfACueBringsTheStreamBack() throws {
        try assertSigtermInTheMiddleOfACueBringsTheStreamBack(.pulseaudio)
    }

    func testOnPipeWireSigtermInTheMiddleOfACueBringsTheStreamBack() throws {
        try assertSigtermInTheMiddleOfACueBringsTheStreamBack(.pipewire)
    }

    func assertSigtermInTheMiddleOfACueBringsTheStreamBack(_ kind: PrivateSoundServer.Kind) throws {
        try start(kind)
        let before = try XCTUnwrap(try musicDecibels())
        let workout = try run(MusicTests.longCueRoutine)
        XCTAssertTrue(try eventually { try musicDecibels().map { abs($0 - Self.third) < 0.3 } ?? false }, "lowered")
        XCTAssertTrue(FileManager.default.fileExists(atPath: notePath), "the note is kept while lowered")
        workout.signal(SIGTERM)
        XCTAssertEqual(workout.wait(), 128 + SIGTERM)
        XCTAssertEqual(try musicDecibels(), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: notePath))
    }

    func testARunKilledDuringACueLeavesANoteTheNextRunRestoresTheStreamFrom() throws {
        try assertARunKilledDuringACueLeavesANoteTheNextRunRestoresTheStreamFrom(.pulseaudio)
    }

    func testOnPipeWireARunKilledDuringACueLeavesANoteTheNextRunRestoresTheStreamFrom() throws {
        try assertARunKilledDuringACueLeavesANoteTheNextRunRestoresTheStreamFrom(.pipewire)
    }

    func assertARunKilledDuringACueLeavesANoteTheNextRunRestoresTheStreamFrom(_ kind: PrivateSoundServer.Kind) throws {
        try start(kind)
        let before = try XCTUnwrap(try musicDecibels())
        let killed = try run(MusicTests.longCueRoutine)
        XCTAssertTrue(try eventually { try musicDecibels().map { abs($0 - Self.third) < 0.3 } ?? false }, "lowered")
        killed.signal(SIGKILL)
        XCTAssertEqual(killed.wait(), 128 + SIGKILL)
        assertLowered(try musicDecibels(), "nobody put it back")
        let note = try String(contentsOfFile: notePath, encoding: .utf8)
        XCTAssertTrue(note.contains("\"stream\""), note)
        let next = try BackgroundRun(WorkoutBinary.binary, ["run", try writeQuiet(), "--json", "--no-history", "--no-sound",
                                                            "--no-notify"], environment: environment, in: scratch)
        XCTAssertEqual(next.wait(), 0, next.stderr)
        XCTAssertEqual(try musicDecibels(), before, "\(kind): the next run put it back")
        XCTAssertFalse(FileManager.default.fileExists(atPath: notePath))
    }

    func testAnMPRISPlayerWhoseStreamIsLoweredIsNotLoweredTwice() throws {
        try start(.pulseaudio, mpris: true)
        let workout = try run(MusicTests.cueRoutine)
        XCTAssertEqual(workout.wait(), 0, workout.stderr)
        for decibels in heardAtWords() { assertLowered(decibels, "the stream is lowered under each word") }
        XCTAssertEqual(music.volumeLog, [0.9], "its MPRIS volume is never touched: lowered once, not twice")
    }

    /// A player whose MPRIS volume cannot be set (as Firefox's cannot): its stream is what
    /// gets lowered, and it is never asked to set its volume, nor paused.
    func testAnMPRISPlayerThatRefusesVolumeIsLoweredThroughItsStream() throws {
        try assertAnMPRISPlayerThatRefusesVolumeIsLoweredThroughItsStream(.pulseaudio)
    }

    func testOnPipeWireAnMPRISPlayerThatRefusesVolumeIsLoweredThroughItsStream() throws {
        try assertAnMPRISPlayerThatRefusesVolumeIsLoweredThroughItsStream(.pipewire)
    }

    func assertAnMPRISPlayerThatRefusesVolumeIsLoweredThroughItsStream(_ kind: PrivateSoundServer.Kind) throws {
        try start(kind)
        let log = scratch.appendingPathComponent("novolume.log").path
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let players = scratch.appendingPathComponent("novolume.json")
        try #"[{"name": "novolume", "behaviour": "novolume", "volume": 1.0, "stream": true}]"#
            .write(to: players, atomically: false, encoding: .utf8)
        var standInEnvironment = server.environment
        standInEnvironment["DBUS_SESSION_BUS_ADDRESS"] = music.environment["DBUS_SESSION_BUS_ADDRESS"]
        let standIn = try Daemon("/usr/bin/python3", [fixtures.appendingPathComponent("mpris_server.py").path, log, players.path],
                                 environment: standInEnvironment, capture: true,
                                 log: scratch.appendingPathComponent("novolume.err").path)
        defer { standIn.kill() }
        XCTAssertTrue(eventually { String(decoding: standIn.captured, as: UTF8.self).contains("ready") }, "the stand-in started")
        XCTAssertTrue(try eventually { Self.decibels(in: try server.pactl(["list", "sink-inputs"]), of: standIn.pid) != nil },
                      "its stream plays")
        let before = Self.decibels(in: try server.pactl(["list", "sink-inputs"]), of: standIn.pid)
        let workout = try run(MusicTests.longCueRoutine)
        XCTAssertTrue(try eventually {
            Self.decibels(in: try server.pactl(["list", "sink-inputs"]), of: standIn.pid).map { abs($0 - (before ?? 0) - Self.third) < 0.3 } ?? false
        }, "its stream is lowered")
        XCTAssertEqual(workout.wait(), 0, workout.stderr)
        XCTAssertEqual(Self.decibels(in: try server.pactl(["list", "sink-inputs"]), of: standIn.pid), before, "and put back")
        let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(calls.filter { $0.contains(" Set ") || $0.hasSuffix(" Pause") }, [],
                       "never asked to set its volume or to pause: \(calls)")
    }

    private func streamIndex() throws -> Int? {
        let text = try server.pactl(["list", "sink-inputs"])
        guard let process = music.process else { return nil }
        return text.components(separatedBy: "Sink Input #").dropFirst()
            .first { $0.contains("application.process.id = \"\(process)\"") }
            .flatMap { Int($0.prefix { $0.isNumber }) }
    }

    private func writeQuiet() throws -> String {
        let path = scratch.appendingPathComponent("quiet.lua")
        try "return workout { name = \"Quiet\", countdown = 0, sounds = { start = false, work = false, finish = false }, work(1) }"
            .write(to: path, atomically: false, encoding: .utf8)
        return path.path
    }
}
