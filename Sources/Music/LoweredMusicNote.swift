import Foundation
import IntervalEngine
import Platform
import SoundPlayer

/// The note a run keeps while it holds music lowered or paused: which players and which
/// of the sound server's streams, at what volume they were and what volume they were given. It is written before a player is
/// touched and removed once every player is back, so a run that dies in between (kill -9,
/// a crash) leaves it, and the next run puts those players back before it starts —
/// the same way a cue's end does, leaving a player the user changed since as it is.
/// It lives in `$XDG_STATE_HOME/workout/music-lowered.json`.
///
/// A note is only ever a dead run's to act on: each entry names the run that wrote it
/// (its process id and start time, `RunIdentity`), and a note whose run is still going —
/// a second run started beside it — is left alone, or the second run would put back
/// music the first still holds lowered. Each player is named by its bus connection too
/// (`owner`, a unique name the bus never gives again), so a player that has gone, and
/// another that took its well-known name since, is never touched.
public struct LoweredMusicNote: Sendable {
    public let path: String

    public init(directories: UserDirectories) {
        path = directories.state("music-lowered.json")
    }

    /// One player touched: its well-known bus name and its connection's unique name (the
    /// calls go to that: the player lowered, not whoever holds the name now); the volume
    /// it had and the volume it was given (`duck`), or neither (`pause`: it was paused).
    public struct Player: Sendable, Equatable {
        public var name: String
        public var owner: String?
        public var volume: Double?
        public var lowered: Double?

        public init(name: String, owner: String? = nil, volume: Double? = nil, lowered: Double? = nil) {
            self.name = name
            self.owner = owner
            self.volume = volume
            self.lowered = lowered
        }

        /// Where its calls go: the connection lowered, else (an older note) the name.
        var address: String { owner ?? name }
    }

    /// The players of the note; none when there is no note or it does not read (a note
    /// is a hint for putting music back, never a reason to refuse a run). A player whose
    /// volumes are not both volumes (`isVolume`: `1e308`, `-7`, a string) is left out, so
    /// a damaged or hostile note never makes a run set a volume or resume a player.
    public func read() -> [Player] {
        entries().compactMap { object in
            guard let name = object["name"] as? String, name.hasPrefix(MediaPlayers.prefix) else { return nil }
            // A unique name: a colon, then at most a bus address's worth of characters.
            let owner = (object["owner"] as? String).flatMap { $0.hasPrefix(":") && $0.utf8.count <= 255 ? $0 : nil }
            let volume = object["volume"], lowered = object["lowered"]
            if volume == nil && lowered == nil { return Player(name: name, owner: owner) }
            guard let volume = volume as? Double, let lowered = lowered as? Double,
                  Self.isVolume(volume), Self.isVolume(lowered) else { return nil }
            return Player(name: name, owner: owner, volume: volume, lowered: lowered)
        }
    }

    /// The note's entries, none when there is no note, it does not read, or the run that
    /// wrote it is still going (`isHeld`).
    private func entries() -> [[String: Any]] {
        guard let bytes = try? BoundedFile.read(path, maximumSize: Self.largest),
              let objects = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [[String: Any]],
              !Self.isHeld(objects) else { return [] }
        return Array(objects.prefix(Self.mostPlayers))
    }

    /// Whether the note is there and the run that wrote it is still going (not this one).
    public var isHeld: Bool {
        guard let bytes = try? BoundedFile.read(path, maximumSize: Self.largest),
              let objects = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [[String: Any]] else { return false }
        return Self.isHeld(objects)
    }

    private static func isHeld(_ objects: [[String: Any]]) -> Bool {
        let runs = Set(objects.compactMap { $0["run"] as? String })
        return runs.contains { $0 != RunIdentity.current && RunIdentity.isGoing($0) }
    }

    /// The sound server's streams of the note. A stream whose volumes are not volumes (of
    /// the server's: 0 to `PA_VOLUME_MAX`), or whose two lists differ in length or hold
    /// more than 32 channels, is left out.
    public func readStreams() -> [OtherStreams.Lowered] {
        entries().compactMap { object in
            guard let index = Self.whole(object["stream"], upTo: Int(UInt32.max - 1)),
                  let volume = Self.channels(object["volume"]), let lowered = Self.channels(object["lowered"]),
                  volume.count == lowered.count else { return nil }
            let process = object["process"].flatMap { Self.whole($0, upTo: Int(Int32.max)) }.map(Int32.init)
            return OtherStreams.Lowered(index: UInt32(index), process: process, volume: volume, lowered: lowered)
        }
    }

    private static func whole(_ value: Any?, upTo largest: Int) -> Int? {
        guard let whole = (value as? Int) ?? (value as? Double).flatMap({ $0.isFinite ? Int(exactly: $0) : nil }),
              (0...largest).contains(whole) else { return nil }
        return whole
    }

    private static func channels(_ value: Any?) -> [UInt32]? {
        guard let list = value as? [Any], (1...32).contains(list.count) else { return nil }
        let values = list.compactMap { whole($0, upTo: Int(OtherStreams.largestVolume)) }.map(UInt32.init)
        return values.count == list.count ? values : nil
    }

    /// A volume a player may be given: finite, 0 to 10 (1 is full; mpv goes to 1000 %).
    public static func isVolume(_ volume: Double) -> Bool { volume.isFinite && (0...10).contains(volume) }

    /// Writes the note (atomically: a run killed while writing leaves the old one or the
    /// new one, never half); false when it could not be written, and then no player may
    /// be touched, since nothing would put it back after a crash.
    public func write(_ players: [Player], streams: [OtherStreams.Lowered] = []) -> Bool {
        var objects: [[String: Any]] = players.map { player in
            var object: [String: Any] = ["name": player.name]
            if let owner = player.owner { object["owner"] = owner }
            if let volume = player.volume { object["volume"] = volume }
            if let lowered = player.lowered { object["lowered"] = lowered }
            return object
        }
        objects += streams.map { stream in
            var object: [String: Any] = ["stream": stream.index, "volume": stream.volume, "lowered": stream.lowered]
            if let process = stream.process { object["process"] = process }
            return object
        }
        if let run = RunIdentity.current {
            objects = objects.map { $0.merging(["run": run]) { $1 } }
        }
        guard let data = try? JSONSerialization.data(withJSONObject: objects) else { return false }
        do throws(SavedFile.Failure) {
            try SavedFile.makeFolder((path as NSString).deletingLastPathComponent, mode: 0o700)
            try SavedFile.write([UInt8](data), to: path)
            return true
        } catch {
            return false
        }
    }

    public func remove() {
        unlink(path)
    }

    /// A note is a few lines; anything bigger is not ours.
    static let largest = 64 * 1024
    /// The most players and streams a note holds, and so the most a run lowers (the
    /// writer must never write more than the reader reads back: a run killed with 200
    /// players lowered left a note whose first 64 alone were put back). 256 entries of
    /// about 150 bytes stay well inside `largest`.
    public static let mostPlayers = 256
}
