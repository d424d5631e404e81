import Foundation
import IntervalEngine
import Platform

/// When the music is lowered: for each cue heard over it — words said (a countdown
/// number, "Next: …", a text cue, a segment's name), the finish sound, a sound that lasts
/// (a file sound) — from `lead` before its moment until `tail` after its estimated end.
/// A planned moment is known ahead, so the music is already low when the cue starts; a
/// cue nobody planned (a hook's `say()`, a segment started by a key) lowers it when its
/// event comes. A withdrawn moment (a pause, a skip) gives its time back. Cues close
/// together (three, two, one) keep it lowered between them.
///
/// It runs on the main thread, as the session's listeners do, with one timer of the
/// session's scheduler (the main run loop's, beside the workout's; the virtual clock in a
/// test) for the next time the music goes down or back up. Its times are real ones,
/// CLOCK_MONOTONIC nanoseconds as the planned moments give them (the scheduler's own on a
/// virtual clock): words take as long to say at any `--speed`.
@MainActor
public final class MusicUnderCues: @preconcurrency SessionListener {
    private let players: any MusicLowering
    private let scheduler: any Scheduler
    private var windows: [UInt64: (from: UInt64, to: UInt64)] = [:]
    /// Cues on the spot, each with a key of its own.
    private var nextSpotKey: UInt64 = 1 << 63
    private var timer: TimerToken?

    /// How long before a cue's moment the music is lowered: enough for the calls to reach
    /// the player and for its own output buffer to play out at the old volume.
    public static let lead: UInt64 = 400_000_000
    /// How long after a cue's estimated end it stays lowered.
    static let tail: UInt64 = 300_000_000
    /// A sound at least this long is heard over the music (a file sound); shorter tones
    /// (pips, a start sound) pass under it.
    static let longSound = 1.0

    /// `scheduler`: the session's, whose deadlines the planned moments carry.
    public init(players: any MusicLowering, scheduler: any Scheduler) {
        self.players = players
        self.scheduler = scheduler
    }

    public func planned(_ moment: PlannedMoment) {
        guard let seconds = Self.heardSeconds(moment) else { return }
        let from = moment.deadline > Self.lead ? moment.deadline - Self.lead : 0
        windows[moment.id] = (from, moment.deadline &+ Self.nanoseconds(seconds) &+ Self.tail)
        update()
    }

    public func withdrawn(_ moment: PlannedMoment) {
        guard windows.removeValue(forKey: moment.id) != nil else { return }
        update()
    }

    public func receive(_ event: Event) {
        guard case let .alert(type, text, detail) = event.kind else { return }
        let seconds: Double
        switch (type, detail) {
        case (.say, .spoken(let moment)?) where windows[moment] != nil: return
        case (.say, .unheard?): return
        case (.say, _): seconds = Self.speechSeconds(text)
        case (.sound, .sound(let alert)?):
            if let moment = alert.moment, windows[moment] != nil { return }
            guard alert.heard == .played, Self.heardOverMusic(alert.sound) else { return }
            seconds = alert.sound.seconds
        default: return
        }
        let now = scheduler.nowDeadline
        windows[nextSpotKey] = (now, now &+ Self.nanoseconds(seconds) &+ Self.tail)
        nextSpotKey &+= 1
        update()
    }

    /// How long a planned moment's cue is heard over the music, or nil when it passes
    /// under it.
    static func heardSeconds(_ moment: PlannedMoment) -> Double? {
        var seconds: Double?
        let sound = moment.sound
        if let sound, heardOverMusic(sound) { seconds = sound.seconds }
        if case .boundary(_, last: true) = moment.kind, let sound { seconds = sound.seconds }
        if let words = moment.words {
            let offset = if case .boundary = moment.kind { sound.map { $0.seconds + 0.05 } ?? 0 } else { 0.0 }
            seconds = max(seconds ?? 0, offset + speechSeconds(words))
        }
        return seconds
    }

    /// Lowers the music for the alerts the run's start gives (`Session.openingAlerts`),
    /// which come too soon for `lead`: the run waits for the players, at most `lead`,
    /// before it starts. The window lasts until the start's own cue has come and taken over
    /// (its words lower the music from then on, as a cue nobody planned does); the timers
    /// the start plans meanwhile find it lowered and leave it so. False when none of the
    /// alerts is heard over the music: nothing is lowered.
    public func lowerForOpening(_ alerts: [AlertPolicy.Alert]) -> Bool {
        let heard = alerts.contains { alert in
            switch alert {
            case .say: true
            case .sound(let sound): Self.heardOverMusic(sound)
            default: false
            }
        }
        guard heard else { return false }
        let now = scheduler.nowDeadline
        windows[nextSpotKey] = (now, now &+ Self.lead &+ Self.tail)
        nextSpotKey &+= 1
        update()
        return true
    }

    /// The finish, a sound file (a gong, a voice), or a long sound; pips and start tones
    /// pass under the music.
    static func heardOverMusic(_ sound: Sound) -> Bool {
        sound.name == "finish" || sound.file != nil || sound.seconds >= longSound
    }

    /// About how long words take to say (`HeardLimits.speakingSeconds`: at least a second).
    static func speechSeconds(_ text: String) -> Double {
        HeardLimits.speakingSeconds(text)
    }

    static func nanoseconds(_ seconds: Double) -> UInt64 { UInt64(max(0, seconds) * 1e9) }

    /// Lowers or restores for now, and sets the timer for the next change.
    private func update() {
        let now = scheduler.nowDeadline
        windows = windows.filter { $0.value.to > now }
        let lowered = windows.values.contains { $0.from <= now }
        if lowered { players.lower() } else { players.restore() }
        let next = windows.values.map { $0.from > now ? $0.from : $0.to }.min()
        if let timer { scheduler.cancel(timer) }
        timer = nil
        guard let next else { return }
        timer = scheduler.scheduleAside(at: scheduler.time(atDeadline: next)) { [weak self] _ in
            self?.timer = nil
            self?.update()
        }
    }

    /// The run is over: no more timers (the players are put back by `MediaPlayers.finish`).
    public func stop() {
        if let timer { scheduler.cancel(timer) }
        timer = nil
        windows = [:]
    }
}
