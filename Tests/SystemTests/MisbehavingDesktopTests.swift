import Foundation
import XCTest

/// `run --music` on a desktop whose players misbehave (`MisbehavingPlayers`): players that
/// never reply, reply 10 s late, answer with the wrong types, a NaN or infinite volume or
/// escape sequences, or leave mid-cue, and 200 of them at once. The timers stay on time,
/// the good player is still lowered before the cue, `q` and SIGTERM end the run at once,
/// nothing of theirs reaches the terminal, and the dead-run note touches only players the
/// run that wrote it lowered. (A bus name cannot hold an escape sequence: the bus daemon
/// takes only letters, digits, `_`, `-` and dots, so the player's own strings carry them.)
final class MisbehavingDesktopTests: XCTestCase {
    var players: MisbehavingPlayers!
    var scratch: URL!

    override func tearDown() {
        players?.stop()
        players = nil
    }

    func start(_ list: [MisbehavingPlayers.Player]) throws {
        players = try MisbehavingPlayers(list)
        scratch = players.directory.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        // Each word said is a line of the players' log, after the calls that came before it.
        try FakeProgram.make("spd-say", in: scratch, then: "printf 'said %s\\n' \"$*\" >> '\(players.logPath)'")
    }

    var environment: [String: String] {
        ["DBUS_SESSION_BUS_ADDRESS": players.address, "PATH": scratch.path + ":/usr/bin:/bin",
         "XDG_STATE_HOME": scratch.appendingPathComponent("state").path, "PULSE_SERVER": TmuxPane.noSoundServer,
         "HOME": scratch.path]
    }

    var notePath: String { scratch.appendingPathComponent("state/workout/music-lowered.json").path }

    func routine(_ source: String) throws -> String {
        let path = scratch.appendingPathComponent("desktop-\(UUID().uuidString.prefix(6)).lua")
        try source.write(to: path, atomically: false, encoding: .utf8)
        return path.path
    }

    static let arguments = ["--json", "--no-history", "--no-sound", "--no-notify", "--allow-sleep", "--voice"]

    func run(_ source: String, _ options: [String] = []) throws -> BackgroundRun {
        try BackgroundRun(WorkoutBinary.binary, ["run", try routine(source)] + Self.arguments + options,
                          environment: environment, in: scratch)
    }

    /// The 99th percentile of the run's `late_ms`, and how many events had one.
    func lateness(_ output: String) -> (p99: Double, count: Int) {
        let late = output.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["late_ms"] as? Double
        }.sorted()
        guard !late.isEmpty else { return (0, 0) }
        return (late[min(late.count - 1, Int((Double(late.count) * 0.99).rounded(.up)) - 1)], late.count)
    }

    func assertOnTime(_ output: String, file: StaticString = #filePath, line: UInt = #line) {
        let late = lateness(output)
        XCTAssertGreaterThan(late.count, 0, "no timer events", file: file, line: line)
        XCTAssertLessThan(late.p99, 20, "late_ms p99", file: file, line: line)
    }

    /// Neither ESC nor any other control character but newline and tab: the players'
    /// strings (an OSC that sets the title, a clear screen) never get through.
    func assertClean(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" || $0.value == 0x7f },
                       text, file: file, line: line)
        XCTAssertFalse(text.contains("pwned"), text, file: file, line: line)
    }

    /// Waits for a run with a bound: its exit status, or nil if it had not ended within
    /// `seconds` (it is killed then).
    func wait(_ run: BackgroundRun, within seconds: Double) -> Int32? {
        var status: Int32?
        let ended = eventually(timeout: seconds, every: 0.02) {
            var raw: Int32 = 0
            guard waitpid(run.pid, &raw, WNOHANG) == run.pid else { return false }
            status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
            return true
        }
        return ended ? status : nil
    }

    /// The name is said at the start, "Halfway" is a planned cue at 2 s (MusicTests').
    static let cueRoutine = MusicTests.cueRoutine
    /// A name that takes five seconds to say: the music stays low for that long.
    static let longCueRoutine = MusicTests.longCueRoutine

    /// Each misbehaviour beside a good player: the good one is lowered before the planned
    /// cue is said and put back, the others are not set (no volume to go by) or, gone
    /// mid-cue, not put back; the timers kept their time and the output is clean.
    func testMisbehavingPlayersLeaveTheTimersAndTheGoodPlayerAlone() throws {
        try start(MisbehavingPlayers.hostile)
        let run = try run(Self.cueRoutine)
        XCTAssertEqual(run.wait(), 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        assertOnTime(run.stdout)
        assertClean(run.stdout)
        let log = players.log
        let said = try XCTUnwrap(log.firstIndex(of: "said Halfway"), "\(log)")
        XCTAssertEqual(log[..<said].filter { $0.hasPrefix("call good Set") }.last, "call good Set Volume 0.3",
                       "lowered before the planned cue was said: \(log)")
        XCTAssertTrue(eventually { players.volumesSet("good").last == 0.9 }, "\(log)")
        for name in ["silent", "slow", "wrong", "types", "nan", "inf"] {
            XCTAssertEqual(players.volumesSet(name), [], name)
        }
        XCTAssertEqual(players.volumesSet("vanish"), [0.2], "lowered once, then gone: nothing to put back")
        XCTAssertFalse(FileManager.default.fileExists(atPath: notePath), "no note is left")
    }

    /// SIGTERM while the good player is lowered and the silent and slow ones still owe
    /// answers: the run ends within a bound, the good player back, the note gone.
    func testSigtermEndsTheRunAtOnceAmongPlayersThatNeverAnswer() throws {
        try start(MisbehavingPlayers.hostile)
        let run = try run(Self.longCueRoutine)
        XCTAssertTrue(eventually { players.volumesSet("good") == [0.3] }, "\(players.log)")
        run.signal(SIGTERM)
        XCTAssertEqual(wait(run, within: 5), 128 + SIGTERM, "ended within 5 s")
        XCTAssertEqual(players.volumesSet("good"), [0.3, 0.9], "put back before it exited")
        XCTAssertFalse(FileManager.default.fileExists(atPath: notePath))
        assertClean(run.stdout + run.stderr)
    }

    /// `q` on the live display, in a real terminal, while the players misbehave: the run
    /// ends with status 0, the terminal is given back, and nothing the players said
    /// (their escape sequences) was written to it.
    func testQuitOnTheDisplayAmongMisbehavingPlayers() throws {
        try start(MisbehavingPlayers.hostile)
        let pane = try TmuxPane(columns: 100, rows: 30)
        let variables = environment.map { "\($0)='\($1)'" }.joined(separator: " ")
        try pane.tmux(["respawn-pane", "-k", "-t", "main",
                       "env LANG=C.UTF-8 \(variables) '\(WorkoutBinary.binary)' run '\(try routine(Self.longCueRoutine))' "
                       + "--no-history --no-sound --no-notify --allow-sleep --voice; echo $? > \(pane.directory.path)/status; sleep 60"])
        try pane.record()
        XCTAssertTrue(eventually { players.volumesSet("good") == [0.3] }, "\(players.log)")
        try pane.send("q")
        XCTAssertEqual(pane.file("status"), "0", pane.text)
        XCTAssertEqual(pane.variable("alternate_on"), "0", "the terminal is given back")
        XCTAssertEqual(players.volumesSet("good"), [0.3, 0.9])
        XCTAssertFalse(pane.output.isEmpty, "the display was recorded")
        XCTAssertFalse(pane.output.contains("pwned"), pane.output)
        XCTAssertFalse(pane.output.contains("\u{1B}]0;"), "no title set")
    }

    /// 200 players at once: the timers keep their time, and every player lowered is put
    /// back.
    func testTwoHundredPlayersAtOnce() throws {
        let many = (1...200).map { MisbehavingPlayers.Player(name: "player\($0)", behaviour: "good") }
        try start(many)
        let run = try run(Self.cueRoutine)
        XCTAssertEqual(wait(run, within: 30), 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        assertOnTime(run.stdout)
        let lowered = many.filter { players.volumesSet($0.name).contains(0.3) }
        XCTAssertEqual(lowered.count, 200, "\(players.log.suffix(20))")
        for player in lowered {
            XCTAssertTrue(eventually { players.volumesSet(player.name).last == 0.9 }, player.name)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: notePath))
    }

    /// A run with no cue of its own: it only puts back what a dead run's note says.
    func quietRun() throws -> BackgroundRun {
        try BackgroundRun(WorkoutBinary.binary, ["run", try routine(Self.cueRoutine), "--json", "--no-history", "--no-sound",
                                                 "--no-notify", "--allow-sleep", "--speed", "10"],
                          environment: environment, in: scratch)
    }

    /// A run killed with 200 players lowered: its note holds them all, and the next run
    /// puts every one back.
    func testTheNoteOfADeadRunPutsBackAllTwoHundred() throws {
        let many = (1...200).map { MisbehavingPlayers.Player(name: "player\($0)", behaviour: "good") }
        try start(many)
        let run = try run(Self.longCueRoutine)
        XCTAssertTrue(eventually { players.log.filter { $0.hasSuffix("Set Volume 0.3") }.count == 200 },
                      "\(players.log.suffix(10))")
        run.signal(SIGKILL)
        XCTAssertEqual(run.wait(), 128 + SIGKILL)
        let next = try quietRun()
        XCTAssertEqual(wait(next, within: 30), 0, next.stderr)
        let back = many.filter { players.volumesSet($0.name) == [0.3, 0.9] }
        XCTAssertEqual(back.count, 200, "put back: \(back.count)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: notePath), "the note is used up")
    }

    /// The player a dead run lowered has gone, and another has taken its name, playing at
    /// what happens to be the lowered volume: the next run leaves it alone.
    func testTheNoteNeverTouchesAPlayerThatCameBackUnderItsName() throws {
        try start([MisbehavingPlayers.Player(name: "good", behaviour: "good")])
        let run = try run(Self.longCueRoutine)
        XCTAssertTrue(eventually { players.volumesSet("good") == [0.3] }, "\(players.log)")
        run.signal(SIGKILL)
        XCTAssertEqual(run.wait(), 128 + SIGKILL)
        XCTAssertTrue(FileManager.default.fileExists(atPath: notePath))
        players.stopPlayers()
        try players.start([MisbehavingPlayers.Player(name: "good", behaviour: "good", volume: 0.3)])
        let next = try quietRun()
        XCTAssertEqual(wait(next, within: 30), 0, next.stderr)
        XCTAssertEqual(players.volumesSet("good"), [0.3], "only the dead run's lowering: \(players.log)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: notePath), "a note of players gone is used up")
    }

    /// A run that is still going has its note too: a second run started meanwhile, with
    /// cues of its own, neither takes it for a dead run's nor lowers the music again (which
    /// would overwrite the first run's note and take it away at its end), and leaves the
    /// first run's player lowered until the first run puts it back.
    func testTheNoteOfARunStillGoingIsNotTouched() throws {
        try start([MisbehavingPlayers.Player(name: "good", behaviour: "good")])
        let first = try run(Self.longCueRoutine)
        XCTAssertTrue(eventually { players.volumesSet("good") == [0.3] }, "\(players.log)")
        let second = try run(Self.cueRoutine)
        XCTAssertEqual(wait(second, within: 30), 0, second.stderr)
        XCTAssertEqual(players.volumesSet("good"), [0.3], "the second run touched nothing: \(players.log)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: notePath), "the first run's note stays")
        XCTAssertEqual(first.wait(), 0, first.stderr)
        XCTAssertEqual(players.volumesSet("good"), [0.3, 0.9])
    }
}
