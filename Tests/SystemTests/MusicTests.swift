import Foundation
@testable import IntervalEngine
import Music
import Platform
import XCTest

/// `run --music` against a real MPRIS player (mpv with mpv-mpris on a private session
/// bus, `PrivateMusicPlayer`): the words of `--voice` (said by a fake spd-say that logs
/// them) lower the music to a third and it comes back; a signal in the middle of a cue, a
/// user who pauses or turns the music up meanwhile, and a run killed outright (its note,
/// restored by the next run) each leave the player as they should. The class shares one
/// bus and player, put back to playing at 0.9 before each test, with logs of its own; each
/// test's runs have a folder of their own (their note, their fake spd-say).
final class MusicTests: XCTestCase {
    static let shared = PerClass(start: { try PrivateMusicPlayer(volume: 0.9) }, stop: { $0.stop() })
    var music: PrivateMusicPlayer!
    var scratch: URL!

    override func setUpWithError() throws {
        music = try Self.shared.get()
        try music.reset(volume: 0.9)
        scratch = music.directory.appendingPathComponent("run-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        // Each word said notes the player's volume at that moment.
        try FakeProgram.make("spd-say", in: scratch, then: "/usr/bin/playerctl -p mpv volume >> \"$0.volumes\"")
    }

    override func tearDown() {
        music = nil
    }

    override class func tearDown() {
        shared.shutDown()
        super.tearDown()
    }

    /// The segment's name is said at the start, "Halfway" is a planned cue at 2 s.
    static let cueRoutine = """
        return workout { name = "Music", countdown = 0,
          sounds = { countdown = false, start = false, work = false, rest = false, finish = false },
          segment{ kind = "work", duration = 4, cues = { [2] = "Halfway" } } }
        """

    /// A name that takes five seconds to say: the music stays low for that long.
    static let longCueRoutine = """
        return workout { name = "Long", countdown = 0,
          sounds = { countdown = false, start = false, work = false, rest = false, finish = false },
          segment{ kind = "work", duration = 7,
                   name = "A very long name that takes the speech program five seconds or so to say" } }
        """

    func routine(_ source: String) throws -> String {
        let path = scratch.appendingPathComponent("music-\(UUID().uuidString.prefix(6)).lua")
        try source.write(to: path, atomically: false, encoding: .utf8)
        return path.path
    }

    var environment: [String: String] {
        var environment = music.environment
        environment["PATH"] = scratch.path + ":/usr/bin:/bin"
        environment["XDG_STATE_HOME"] = scratch.appendingPathComponent("state").path
        return environment
    }

    var notePath: String { scratch.appendingPathComponent("state/workout/music-lowered.json").path }

    func start(_ routine: String, _ options: [String] = []) throws -> BackgroundRun {
        try BackgroundRun(WorkoutBinary.binary, ["run", routine, "--json", "--no-history", "--no-sound", "--no-notify",
                                                 "--voice"] + options,
                          environment: environment, in: scratch)
    }

    func waitUntilLowered() {
        XCTAssertTrue(eventually { music.volumeLog.last == 0.3 }, "lowered to a third: \(music.volumeLog)")
    }

    func testTheMusicIsLoweredBeforeAPlannedCueAndComesBackAfterIt() throws {
        let run = try start(try routine(Self.cueRoutine))
        let status = run.wait()
        XCTAssertEqual(status, 0, run.stderr)
        XCTAssertEqual(FakeProgram.log("spd-say", in: scratch, lines: 2), ["Work", "Halfway"])
        XCTAssertTrue(eventually { music.volumeLog == [0.9, 0.3, 0.9, 0.3, 0.9] },
                      "down and back for the name, then for the cue: \(music.volumeLog)")
        XCTAssertEqual(music.volume, 0.9)
        XCTAssertEqual(music.statusLog, ["Playing"], "never paused")
        // Each word found the music already lowered when it was said: the planned cue by
        // the lead, the segment's name said the moment the run starts by the run's waiting
        // for the player before it starts.
        let heard = try String(contentsOf: scratch.appendingPathComponent("spd-say.volumes"), encoding: .utf8)
        XCTAssertEqual(heard.split(separator: "\n").map { Double($0) }, [0.3, 0.3], heard)
        XCTAssertFalse(FileManager.default.fileExists(atPath: notePath), "no note is left")
        XCTAssertTrue(run.stderr.isEmpty, run.stderr)
    }

    func testPauseModePausesAndPlaysAgain() throws {
        let run = try start(try routine(Self.cueRoutine), ["--music", "pause"])
        XCTAssertEqual(run.wait(), 0, run.stderr)
        XCTAssertTrue(eventually { music.statusLog == ["Playing", "Paused", "Playing", "Paused", "Playing"] },
                      "\(music.statusLog)")
        XCTAssertEqual(music.volumeLog, [0.9], "the volume is not touched")
    }

    func testOffLeavesTheMusicAlone() throws {
        let run = try start(try routine(Self.cueRoutine), ["--music", "off"])
        XCTAssertEqual(run.wait(), 0, run.stderr)
        XCTAssertEqual(FakeProgram.log("spd-say", in: scratch, lines: 2), ["Work", "Halfway"])
        XCTAssertEqual(music.volumeLog, [0.9])
        XCTAssertEqual(music.statusLog, ["Playing"])
    }

    func testSigtermInTheMiddleOfACueBringsTheMusicBack() throws {
        let run = try start(try routine(Self.longCueRoutine))
        waitUntilLowered()
        XCTAssertTrue(FileManager.default.fileExists(atPath: notePath), "the note is kept while lowered")
        run.signal(SIGTERM)
        XCTAssertEqual(run.wait(), 128 + SIGTERM)
        XCTAssertTrue(eventually { music.volumeLog.last == 0.9 }, "\(music.volumeLog)")
        XCTAssertEqual(music.volume, 0.9)
        XCTAssertFalse(FileManager.default.fileExists(atPath: notePath))
    }

    func testAPlayerTheUserPausesDuringACueStaysPausedWithItsVolumeBack() throws {
        let run = try start(try routine(Self.longCueRoutine))
        waitUntilLowered()
        try music.control(["pause"])
        XCTAssertTrue(eventually { music.statusLog.last == "Paused" })
        XCTAssertEqual(run.wait(), 0, run.stderr)
        XCTAssertEqual(music.volume, 0.9, "its volume is back")
        XCTAssertEqual(try music.read("status"), "Paused", "and it stays paused")
        XCTAssertEqual(music.statusLog, ["Playing", "Paused"])
    }

    func testAPlayerTheUserTurnsUpDuringACueKeepsTheUsersVolume() throws {
        let run = try start(try routine(Self.longCueRoutine))
        waitUntilLowered()
        try music.control(["volume", "0.5"])
        XCTAssertTrue(eventually { music.volumeLog.last == 0.5 })
        XCTAssertEqual(run.wait(), 0, run.stderr)
        XCTAssertEqual(music.volume, 0.5, "left as the user set it")
        XCTAssertEqual(music.volumeLog, [0.9, 0.3, 0.5])
    }

    func testARunKilledDuringACueLeavesANoteTheNextRunRestoresFrom() throws {
        let run = try start(try routine(Self.longCueRoutine))
        waitUntilLowered()
        run.signal(SIGKILL)
        XCTAssertEqual(run.wait(), 128 + SIGKILL)
        XCTAssertEqual(music.volume, 0.3, "nobody put it back")
        let note = try String(contentsOfFile: notePath, encoding: .utf8)
        XCTAssertTrue(note.contains("org.mpris.MediaPlayer2.mpv"), note)
        // The next run says nothing (no --voice): it only puts the music back.
        let next = try BackgroundRun(WorkoutBinary.binary, ["run", try routine(Self.cueRoutine), "--json", "--no-history",
                                                            "--no-sound", "--no-notify", "--speed", "10"],
                                     environment: environment, in: scratch)
        XCTAssertEqual(next.wait(), 0, next.stderr)
        XCTAssertTrue(eventually { music.volumeLog.last == 0.9 }, "\(music.volumeLog)")
        XCTAssertEqual(music.volumeLog, [0.9, 0.3, 0.9])
        XCTAssertFalse(FileManager.default.fileExists(atPath: notePath), "the note is used up")
    }

    /// The note as the next run reads it: a player whose volumes are not volumes (`1e308`,
    /// `-7`, 11, a string, one without the other) is left out, so nothing would set them
    /// (mpv refuses such values itself; another player might not); a note that cannot be
    /// written says so, and then no player is touched.
    func testTheNoteTakesOnlyVolumesThatAreVolumes() throws {
        let state = scratch.appendingPathComponent("note-state")
        let note = LoweredMusicNote(directories: UserDirectories(environment: ["XDG_STATE_HOME": state.path, "HOME": "/nonexistent"]))
        let player = "org.mpris.MediaPlayer2.mpv"
        XCTAssertTrue(note.write([.init(name: player, volume: 0.9, lowered: 0.3), .init(name: player + ".b")]))
        XCTAssertEqual(note.read(), [.init(name: player, volume: 0.9, lowered: 0.3), .init(name: player + ".b")])
        for volumes in [#""volume":1e308,"lowered":0.9"#, #""volume":-7,"lowered":0.9"#, #""volume":11,"lowered":0.9"#,
                        #""volume":"loud","lowered":0.9"#, #""volume":0.9"#, #""lowered":0.3"#] {
            try #"[{"name":"\#(player)",\#(volumes)}]"#.write(toFile: note.path, atomically: false, encoding: .utf8)
            XCTAssertEqual(note.read(), [], volumes)
        }
        XCTAssertFalse(LoweredMusicNote.isVolume(.infinity))
        XCTAssertFalse(LoweredMusicNote.isVolume(.nan))
        try FileManager.default.removeItem(atPath: note.path)
        try FileManager.default.createDirectory(atPath: note.path, withIntermediateDirectories: false)
        XCTAssertFalse(note.write([.init(name: player, volume: 0.9, lowered: 0.3)]), "a folder where the note goes")
    }

    /// A note that is no note — volumes of `1e308` and `-7` — is passed over: the next run
    /// sets no volume on the player (mpv itself refuses these values, so this holds the
    /// whole path end to end; the test above is the one a player that took them needs).
    /// The user's own change afterwards is the sign that anything the run had sent would
    /// have arrived first.
    func testANoteWithVolumesThatAreNoVolumesIsPassedOver() throws {
        try FileManager.default.createDirectory(atPath: (notePath as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        for volume in ["1e308", "-7"] {
            let note = #"[{"name":"org.mpris.MediaPlayer2.mpv","volume":\#(volume),"lowered":0.9}]"#
            try note.write(toFile: notePath, atomically: false, encoding: .utf8)
            let next = try BackgroundRun(WorkoutBinary.binary, ["run", try routine(Self.cueRoutine), "--json", "--no-history",
                                                                "--no-sound", "--no-notify", "--speed", "10"],
                                         environment: environment, in: scratch)
            XCTAssertEqual(next.wait(), 0, next.stderr)
        }
        try music.control(["volume", "0.7"])
        XCTAssertTrue(eventually { music.volumeLog.last == 0.7 }, "\(music.volumeLog)")
        XCTAssertEqual(music.volumeLog, [0.9, 0.7], "no volume was set from the note")
    }

    /// Through a private sound server: the finish chime is heard over the music, pips and
    /// start sounds pass under it.
    func testTheFinishSoundLowersTheMusicAndTheEndBringsItBack() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        var environment = environment
        environment.merge(server.environment) { $1 }
        let path = try routine("""
            return workout { name = "Finish", countdown = 1, work(2) }
            """)
        let run = try BackgroundRun(WorkoutBinary.binary, ["run", path, "--json", "--no-history", "--no-notify"],
                                    environment: environment, in: scratch)
        XCTAssertEqual(run.wait(), 0, run.stderr)
        XCTAssertTrue(run.stdout.contains(#""text":"finish""#), run.stdout)
        XCTAssertTrue(eventually { music.volumeLog == [0.9, 0.3, 0.9] }, "one dip, for the finish: \(music.volumeLog)")
    }

    func testWithoutASessionBusNothingHappensAndNothingIsSaid() throws {
        var environment = environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = scratch.appendingPathComponent("no-bus").path
        environment["XDG_RUNTIME_DIR"] = scratch.path
        let run = try BackgroundRun(WorkoutBinary.binary, ["run", try routine(Self.cueRoutine), "--json", "--no-history",
                                                           "--no-sound", "--no-notify", "--voice", "--speed", "4"],
                                    environment: environment, in: scratch)
        XCTAssertEqual(run.wait(), 0, run.stderr)
        XCTAssertEqual(run.stderr, "", "no warning")
        XCTAssertEqual(music.volumeLog, [0.9])
    }
}

/// A workout run in the background, its output in files: signalled, then waited for.
final class BackgroundRun {
    let pid: pid_t
    let directory: URL
    private let name = UUID().uuidString.prefix(6)
    private var status: Int32?

    init(_ path: String, _ arguments: [String], environment: [String: String], in directory: URL) throws {
        self.directory = directory
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, directory.appendingPathComponent("\(name).out").path,
                                         O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, directory.appendingPathComponent("\(name).err").path,
                                         O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard let pid = spawnMerged(path, arguments, environment: environment, actions: &actions) else {
            throw Missing(program: path)
        }
        self.pid = pid
    }

    func signal(_ number: Int32) { kill(pid, number) }

    /// Its peak resident memory in bytes (`ru_maxrss`), once `wait()` has returned.
    private(set) var peakMemory: Int?

    /// The exit status, or 128 + the signal that killed it.
    func wait() -> Int32 {
        if let status { return status }
        var raw: Int32 = 0
        var usage = rusage()
        while wait4(pid, &raw, 0, &usage) < 0 && errno == EINTR {}
        peakMemory = usage.ru_maxrss * 1024
        let result = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        status = result
        return result
    }

    var stdout: String { (try? String(contentsOf: directory.appendingPathComponent("\(name).out"), encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: directory.appendingPathComponent("\(name).err"), encoding: .utf8)) ?? "" }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            _ = wait()
        }
    }
}
