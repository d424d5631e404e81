import DBus
import Foundation
import SoundPlayer

/// The desktop's music: the other applications' playing streams on the sound server
/// (`OtherStreams`: a browser tab, Spotify, any player, with MPRIS or without) and the
/// players on the session bus through MPRIS (`org.mpris.MediaPlayer2.*`). `lower()` turns
/// each playing stream down to a third of its volume (`duck`), then each MPRIS player that
/// is playing and has no stream lowered (a player is lowered once, not twice) — or, with
/// `--music pause`, pauses the players; `restore()` puts back what it touched. Only players that were playing
/// are touched, and a player the user changed meanwhile is left as the user left it: its
/// volume is put back only if it still has the volume it was given, and it is played
/// again only if it is still paused (a player the user paused under a lowered cue gets
/// its volume back and stays paused).
///
/// Each step is a few calls sent without waiting, their replies handled on the main
/// thread; one lowering or restoring runs at a time, and a wish that changed meanwhile
/// (a cue that ended while the players were being listed) is acted on when it ends.
/// `LoweredMusicNote` holds what is lowered, so a run that dies leaves a note the next
/// run restores from (`recover`). It lives on the main thread, as its `BusConnection`
/// does; the sound server's answers come back to it through the main queue.
@MainActor
public final class MediaPlayers {
    /// Every MPRIS player's bus name starts with it.
    nonisolated public static let prefix = "org.mpris.MediaPlayer2."
    static let path = "/org/mpris/MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"
    static let properties = "org.freedesktop.DBus.Properties"
    /// A call that takes longer is given up: the cue is over by then.
    static let callTimeout = 2.0
    /// How long the lowering waits for a player to say whether it plays. The players are
    /// lowered together once all have answered, so one that never replies (or replies
    /// 10 s late, as a hung player does) would hold every other player at full volume
    /// through the cue; past this it is passed over for this cue. It is well inside
    /// `MusicUnderCues.lead` (0.4 s), and a player that works answers in milliseconds,
    /// even 200 of them at once.
    static let answerTimeout = 0.25

    private let bus: BusConnection?
    private let streams: OtherStreams?
    private let mode: MusicMode
    private let note: LoweredMusicNote

    private enum State {
        case up, lowering, down, raising
    }

    private var state = State.up
    /// Whether the music should be lowered now.
    private var wanted = false
    /// The players lowered or paused, with what to put back.
    private var touched: [LoweredMusicNote.Player] = []
    /// The streams lowered, with what to put back.
    private var loweredStreams: [OtherStreams.Lowered] = []
    /// While raising: the players' answers, and the streams', still to come.
    private var playersPending = false
    private var streamsPending = false
    /// Whether the note is this run's to remove: it wrote it, or took it over from a dead
    /// run. A note of another run going beside this one is never removed by this one.
    private var holdsNote = false

    /// The sound server's streams (with `duck`) and the session bus's players, or nil
    /// where there is neither (nothing happens then, and nothing is said).
    public static func connect(mode: MusicMode, note: LoweredMusicNote, environment: [String: String]) -> MediaPlayers? {
        guard mode != .off else { return nil }
        let bus = try? BusConnection.open(.session, environment: environment).get()
        let streams = mode == .duck ? OtherStreams.connect() : nil
        guard bus != nil || streams != nil else { return nil }
        return MediaPlayers(bus: bus, streams: streams, mode: mode, note: note)
    }

    init(bus: BusConnection?, streams: OtherStreams?, mode: MusicMode, note: LoweredMusicNote) {
        self.bus = bus
        self.streams = streams
        self.mode = mode
        self.note = note
    }

    /// Whether the players are lowered, or being lowered (tests, the benchmark).
    public var isLowered: Bool { state == .lowering || state == .down }
    /// Whether every player that plays has been told its lower volume (or to pause).
    public var isDown: Bool { state == .down }

    /// Puts back the players a run that died left lowered (its note), before this run
    /// lowers anything.
    /// A note of a run still going is left to that run; an entry of an older note, which
    /// names no connection, is passed over (whoever holds the name now may not be the
    /// player lowered; the next lowering writes the note afresh).
    public func recover() {
        guard state == .up, !note.isHeld else { return }
        let left = bus == nil ? [] : note.read().filter { $0.owner != nil }
        let streamsLeft = streams == nil ? [] : note.readStreams()
        guard !left.isEmpty || !streamsLeft.isEmpty else { return }
        touched = left
        loweredStreams = streamsLeft
        holdsNote = true
        state = .down
        advance()
    }

    public func lower() {
        wanted = true
        advance()
    }

    public func restore() {
        wanted = false
        advance()
    }

    /// The end of the run: puts back what is lowered, waiting up to `seconds` for the
    /// players' answers (the run loop no longer turns), then lets go of the bus.
    public func finish(within seconds: Double) {
        wanted = false
        advance()
        if streamsPending, let streams {
            // Their answers would come through the main queue, which no longer turns.
            streams.restoreAndWait(loweredStreams, within: seconds)
            streamsRestored()
        }
        bus?.settle(within: seconds) { state == .up }
        bus?.close()
        streams?.close()
    }

    private func advance() {
        switch state {
        case .up where wanted: startLowering()
        case .down where !wanted: startRaising()
        default: break
        }
    }

    // MARK: Lowering

    private func startLowering() {
        state = .lowering
        guard let streams else { return listPlayers(sparing: []) }
        streams.playing(share: MusicMode.duckedShare) { found in
            DispatchQueue.main.async { self.streamsFound(found) }
        }
    }

    /// Lowers the playing streams at once, once the note says so — before the players are
    /// asked anything, so a slow or silent player never holds the music up — then goes on
    /// to the MPRIS players that are not among them.
    private func streamsFound(_ found: [OtherStreams.Lowered]) {
        // Another run going beside this one holds the music lowered (its note): see `lowered`.
        let lowering = note.isHeld ? [] : Array(found.prefix(LoweredMusicNote.mostPlayers))
        if !lowering.isEmpty, note.write([], streams: lowering) {
            holdsNote = true
            loweredStreams = lowering
            streams?.lower(lowering)
        }
        listPlayers(sparing: Set(found.compactMap(\.process)))
    }

    /// The MPRIS players that are playing, less those whose process plays a stream that
    /// is lowered already.
    private func listPlayers(sparing lowering: Set<Int32>) {
        guard let bus else { return lowered([]) }
        bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames",
                 timeout: Self.callTimeout) { [self] result in
            let names = (try? result.get())?.first?.strings.filter { $0.hasPrefix(Self.prefix) } ?? []
            playing(among: Array(names.prefix(LoweredMusicNote.mostPlayers))) { players in
                guard self.mode == .duck, !lowering.isEmpty else { return self.lowered(players) }
                self.processes(of: players.map(\.name)) { processes in
                    let rest = players.filter { processes[$0.name].map { !lowering.contains($0) } ?? true }
                    self.lowered(rest)
                }
            }
        }
    }

    /// The process behind each bus name (the bus daemon knows it).
    private func processes(of names: [String], _ done: @escaping ([String: Int32]) -> Void) {
        guard let bus, !names.isEmpty else { return done([:]) }
        var found: [String: Int32] = [:], answered = 0
        for name in names {
            bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetConnectionUnixProcessID",
                     timeout: Self.callTimeout, arguments: { $0.string(name) }) { result in
                if let pid = (try? result.get())?.first?.integer, let process = Int32(exactly: pid) { found[name] = process }
                answered += 1
                if answered == names.count { done(found) }
            }
        }
    }

    /// A player found playing: its well-known name, its connection (the bus's unique name,
    /// which every later call goes to) and its volume.
    typealias Found = (name: String, owner: String, volume: Double?)

    /// The players among `names` that are playing, with their connection and volume.
    private func playing(among names: [String], _ done: @escaping ([Found]) -> Void) {
        guard let bus, !names.isEmpty else { return done([]) }
        var answers: [(found: Found, status: String?)] = []
        var answered = 0
        func answer(_ found: Found?, _ status: String?) {
            if let found { answers.append((found, status)) }
            answered += 1
            guard answered == names.count else { return }
            done(answers.filter { $0.status == "Playing" }.map(\.found))
        }
        for name in names {
            bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner",
                     timeout: Self.callTimeout, arguments: { $0.string(name) }) { [self] result in
                guard let owner = (try? result.get())?.first?.string, owner.hasPrefix(":") else { return answer(nil, nil) }
                readPlayer(owner, timeout: Self.answerTimeout) { status, volume in
                    answer((name, owner, volume), status)
                }
            }
        }
    }

    /// Lowers or pauses `players`, once the note says so (beside the streams already lowered).
    private func lowered(_ players: [Found]) {
        touched = players.compactMap { player in
            switch mode {
            case .pause: return LoweredMusicNote.Player(name: player.name, owner: player.owner)
            case .duck:
                // A volume that is no volume (infinite, NaN, 1e308) is not lowered: it could
                // not be put back, nor written in the note.
                guard let volume = player.volume, volume > 0, LoweredMusicNote.isVolume(volume) else { return nil }
                return LoweredMusicNote.Player(name: player.name, owner: player.owner, volume: volume,
                                               lowered: volume * MusicMode.duckedShare)
            case .off: return nil
            }
        }
        // Another run going beside this one holds the music lowered (its note): lowering
        // it again would take it to a ninth, and this run's note would overwrite that
        // run's and be removed at this run's end, leaving nothing to put it back after a
        // crash. The music is low already; this cue leaves it to that run.
        if note.isHeld && !holdsNote { touched = [] }
        if !touched.isEmpty, !note.write(touched, streams: loweredStreams) { touched = [] }
        if !touched.isEmpty { holdsNote = true }
        for player in touched {
            if let lowered = player.lowered {
                setVolume(player.address, lowered)
            } else {
                send(player.address, Self.playerInterface, "Pause")
            }
        }
        state = .down
        advance()
    }

    // MARK: Restoring

    private func startRaising() {
        state = .raising
        let players = touched
        playersPending = !players.isEmpty && bus != nil
        streamsPending = !loweredStreams.isEmpty && streams != nil
        if streamsPending, let streams {
            streams.restore(loweredStreams) {
                DispatchQueue.main.async { self.streamsRestored() }
            }
        }
        guard playersPending else { return raisedIfDone() }
        var answered = 0
        for player in players {
            readPlayer(player.address) { [self] status, volume in
                putBack(player, status: status, volume: volume)
                answered += 1
                if answered == players.count {
                    playersPending = false
                    raisedIfDone()
                }
            }
        }
    }

    private func streamsRestored() {
        guard streamsPending else { return }
        streamsPending = false
        raisedIfDone()
    }

    private func raisedIfDone() {
        guard state == .raising, !playersPending, !streamsPending else { return }
        raised()
    }

    /// Puts `player` back unless it is gone or the user changed it since.
    private func putBack(_ player: LoweredMusicNote.Player, status: String?, volume: Double?) {
        guard status != nil else { return }
        if let lowered = player.lowered, let original = player.volume {
            if let volume, abs(volume - lowered) < Self.sameVolume { setVolume(player.address, original) }
        } else if status == "Paused" {
            send(player.address, Self.playerInterface, "Play")
        }
    }

    private func raised() {
        touched = []
        loweredStreams = []
        if holdsNote { note.remove() }
        holdsNote = false
        state = .up
        advance()
    }

    /// Volumes this close are the one we set (a player may round what it is given).
    static let sameVolume = 0.005

    // MARK: Calls

    /// A player's PlaybackStatus and Volume (nil, nil: it did not answer within `timeout`).
    private func readPlayer(_ name: String, timeout: Double = callTimeout, _ done: @escaping (String?, Double?) -> Void) {
        guard let bus else { return done(nil, nil) }
        bus.call(name, Self.path, Self.properties, "GetAll", timeout: timeout,
                 arguments: { $0.string(Self.playerInterface) }) { result in
            guard case .success(let values) = result, let properties = values.first?.dictionary else {
                return done(nil, nil)
            }
            let volume: Double? = if case .double(let value)? = properties["Volume"] { value } else { nil }
            done(properties["PlaybackStatus"]?.string, volume)
        }
    }

    private func setVolume(_ name: String, _ volume: Double) {
        bus?.call(name, Self.path, Self.properties, "Set", timeout: Self.callTimeout, arguments: {
            $0.string(Self.playerInterface)
            $0.string("Volume")
            $0.variant(volume)
        }) { _ in }
    }

    private func send(_ name: String, _ interface: String, _ member: String) {
        bus?.call(name, Self.path, interface, member, timeout: Self.callTimeout) { _ in }
    }
}
