import Foundation
import XCTest

/// Music players that misbehave, on a session bus of the test's own: `dbus-daemon
/// --session` on a socket in a scratch directory and Fixtures/mpris_server.py, each of
/// whose players has a connection of its own and never replies, replies 10 s late,
/// answers with the wrong types, a NaN or infinite volume, escape sequences, or gives up
/// its name mid-cue. Every call a player gets is a line of `log`; the fake `spd-say` of
/// the run writes `said TEXT` there too, so the order of lowering and speaking shows.
final class MisbehavingPlayers {
    let directory: URL
    private var bus: Daemon?
    private var players: [Daemon] = []

    var address: String { "unix:path=" + directory.appendingPathComponent("bus").path }
    var logPath: String { directory.appendingPathComponent("log").path }

    /// A player as the fixture takes it: `name` (after `org.mpris.MediaPlayer2.`), its
    /// behaviour (see mpris_server.py) and the volume it plays at.
    struct Player {
        var name: String
        var behaviour: String
        var volume = 0.9
    }

    /// Every misbehaviour at once, beside one good player (`good`, at 0.9).
    static let hostile: [Player] = [
        Player(name: "good", behaviour: "good"),
        Player(name: "silent", behaviour: "silent"), Player(name: "slow", behaviour: "slow"),
        Player(name: "wrong", behaviour: "wrong"), Player(name: "types", behaviour: "types"),
        Player(name: "nan", behaviour: "nan"), Player(name: "inf", behaviour: "inf"),
        Player(name: "escape", behaviour: "escape", volume: 0.8), Player(name: "vanish", behaviour: "vanish", volume: 0.6),
    ]

    init(_ list: [Player]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("workout-players-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let socket = directory.appendingPathComponent("bus").path
        let bus = try Daemon(try PrivateMusicPlayer.program("dbus-daemon"),
                             ["--session", "--nofork", "--address=unix:path=\(socket)"],
                             environment: [:], log: directory.appendingPathComponent("bus.log").path)
        self.bus = bus
        guard eventually(every: 0.02, { FileManager.default.fileExists(atPath: socket) || !bus.isRunning }),
              FileManager.default.fileExists(atPath: socket) else {
            throw PrivateSoundServer.Failure("dbus-daemon did not open \(socket)")
        }
        try start(list)
    }

    /// Starts another fixture process with `list` (a player that comes back under the
    /// same name is a new connection).
    func start(_ list: [Player]) throws {
        let specs = list.map { ["name": $0.name, "behaviour": $0.behaviour, "volume": $0.volume] as [String: Any] }
        let file = directory.appendingPathComponent("players-\(players.count).json")
        try JSONSerialization.data(withJSONObject: specs).write(to: file)
        let server = fixtures.appendingPathComponent("mpris_server.py").path
        let player = try Daemon("/usr/bin/python3", [server, logPath, file.path],
                                environment: ["DBUS_SESSION_BUS_ADDRESS": address], capture: true,
                                log: directory.appendingPathComponent("server-errors-\(players.count)").path)
        players.append(player)
        guard eventually(timeout: 20, every: 0.02, { String(decoding: player.captured, as: UTF8.self).contains("ready") }) else {
            throw PrivateSoundServer.Failure("mpris_server.py did not start: "
                + ((try? String(contentsOf: directory.appendingPathComponent("server-errors-\(players.count - 1)"),
                                encoding: .utf8)) ?? ""))
        }
    }

    /// Stops the fixture processes started so far (their players leave the bus).
    func stopPlayers() {
        for player in players { player.kill() }
    }

    var log: [String] {
        ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The volumes `name` was given, in order.
    func volumesSet(_ name: String) -> [Double] {
        log.compactMap { line in
            let prefix = "call \(name) Set Volume "
            return line.hasPrefix(prefix) ? Double(line.dropFirst(prefix.count)) : nil
        }
    }

    /// Stops everything it started.
    func stop() {
        stopPlayers()
        players = []
        bus?.kill()
        bus = nil
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}
