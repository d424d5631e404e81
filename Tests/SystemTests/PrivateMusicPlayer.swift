import Foundation
import XCTest

/// A real music player on a session bus of the test's own: `dbus-daemon --session` on a
/// socket in a scratch directory, Debian's `mpv` with `mpv-mpris` looping a tone sox makes
/// (to `--ao=null`: it plays in real time, heard by nobody), and `playerctl --follow`
/// logging every change of its Volume and PlaybackStatus as the bus announces it. `make
/// test` installs mpv, mpv-mpris and playerctl; without them the test fails, never skips.
/// A test class may share one (`PerClass`), `reset(volume:)` before each test.
final class PrivateMusicPlayer {
    let directory: URL
    private var bus: Daemon?
    private var player: Daemon?
    private var volumes: Daemon?
    private var statuses: Daemon?

    /// `DBUS_SESSION_BUS_ADDRESS` for the programs under test.
    var address: String { "unix:path=" + directory.appendingPathComponent("bus").path }
    var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address].merging(soundServer) { $1 } }
    /// The sound server mpv plays to (`--ao=pulse`), if any; else it plays to `--ao=null`.
    private let soundServer: [String: String]
    /// mpv's process: its stream on the sound server says so (`application.process.id`).
    var process: pid_t? { player?.pid }

    /// Starts the bus and the player, playing at `volume`: an MPRIS player (mpv-mpris), or
    /// with `mpris: false` a player the bus knows nothing of (`--load-scripts=no`), as a
    /// browser tab or a player without MPRIS is. With `soundServer` (a
    /// `PrivateSoundServer`'s environment) it plays to that server.
    init(volume: Double, mpris: Bool = true, soundServer: [String: String] = [:]) throws {
        self.soundServer = soundServer
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("workout-music-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let tone = directory.appendingPathComponent("tone.ogg").path
        let sox = try spawn(try Self.program("sox"), ["-n", "-r", "44100", "-c", "2", tone, "synth", "30", "sine", "440", "vol", "0.1"])
        guard sox.status == 0 else { throw PrivateSoundServer.Failure("sox could not make a tone: \(sox.output)") }
        let socket = directory.appendingPathComponent("bus").path
        let bus = try Daemon(try Self.program("dbus-daemon"), ["--session", "--nofork", "--address=unix:path=\(socket)"],
                             environment: [:], log: directory.appendingPathComponent("bus.log").path)
        self.bus = bus
        guard eventually(every: 0.02, { FileManager.default.fileExists(atPath: socket) || !bus.isRunning }),
              FileManager.default.fileExists(atPath: socket) else {
            throw PrivateSoundServer.Failure("dbus-daemon did not open \(socket)")
        }
        let script = "/etc/mpv/scripts/mpris.so"
        guard FileManager.default.fileExists(atPath: script) else { throw Missing(program: script + " (mpv-mpris)") }
        let output = soundServer.isEmpty ? "--ao=null" : "--ao=pulse"
        let scripts = mpris ? ["--script=\(script)"] : ["--load-scripts=no"]
        player = try Daemon(try Self.program("mpv"), ["--no-config", output, "--no-video", "--loop-file=inf",
                                                      "--volume=\(volume * 100)", tone] + scripts,
                            environment: environment, log: directory.appendingPathComponent("mpv.log").path)
        guard mpris else { return }
        guard try eventually(every: 0.05, { try self.read("status") == "Playing" }) else {
            throw PrivateSoundServer.Failure("mpv never played on the bus")
        }
        try follow()
    }

    /// `playerctl --follow` anew, for the logs of the test to come: each starts with what
    /// the player holds now.
    private func follow() throws {
        for daemon in [statuses, volumes] { daemon?.kill() }
        let playerctl = try Self.program("playerctl")
        volumes = try Daemon(playerctl, ["-p", "mpv", "--follow", "volume"], environment: environment, capture: true)
        statuses = try Daemon(playerctl, ["-p", "mpv", "--follow", "status"], environment: environment, capture: true)
        guard eventually(every: 0.02, { !self.volumeLog.isEmpty && !self.statusLog.isEmpty }) else {
            throw PrivateSoundServer.Failure("playerctl --follow printed nothing")
        }
    }

    /// The MPRIS player as a new test expects it: playing at `volume`, whatever the test
    /// before did to it (a user's pause, a volume left low by a killed run), with logs of
    /// its own. For a class that shares one bus and player (MusicTests).
    func reset(volume: Double) throws {
        try control(["volume", String(volume)])
        try control(["play"])
        guard try eventually(every: 0.02, { try self.read("status") == "Playing" && self.volume == volume }) else {
            throw PrivateSoundServer.Failure("mpv did not come back to playing at \(volume)")
        }
        try follow()
    }

    /// `playerctl -p mpv <what>` (volume, status), trimmed.
    func read(_ what: String) throws -> String {
        let result = try spawn(try Self.program("playerctl"), ["-p", "mpv", what], environment: mergedEnvironment)
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// What the user does: `playerctl -p mpv pause`, `volume 0.5`, …
    func control(_ arguments: [String]) throws {
        let result = try spawn(try Self.program("playerctl"), ["-p", "mpv"] + arguments, environment: mergedEnvironment)
        guard result.status == 0 else { throw PrivateSoundServer.Failure("playerctl \(arguments) failed") }
    }

    var volume: Double? { (try? read("volume")).flatMap(Double.init) }

    /// Every volume the player announced, in order (repeats of one value folded).
    var volumeLog: [Double] { Self.folded(Self.lines(volumes).compactMap(Double.init)) }
    /// Every PlaybackStatus it announced, in order.
    var statusLog: [String] { Self.folded(Self.lines(statuses)) }

    private var mergedEnvironment: [String: String] {
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { $1 }
        return merged
    }

    private static func lines(_ daemon: Daemon?) -> [String] {
        String(decoding: daemon?.captured ?? Data(), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    private static func folded<T: Equatable>(_ values: [T]) -> [T] {
        values.reduce(into: []) { list, value in if list.last != value { list.append(value) } }
    }

    static func program(_ name: String) throws -> String {
        guard let path = ["/usr/bin/\(name)", "/bin/\(name)"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw Missing(program: name)
        }
        return path
    }

    /// Stops everything it started, followers first (they would see the player go).
    func stop() {
        for daemon in [statuses, volumes, player, bus] { daemon?.kill() }
        statuses = nil
        volumes = nil
        player = nil
        bus = nil
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}
