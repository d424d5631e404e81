import WorkoutValues

/// Something that happened in a running workout. `--json` prints each as one line; the
/// plain printer, the live display and every other `SessionListener` read the same values.
public struct Event: Sendable {
    public enum Kind: Sendable, Equatable {
        /// `segments` and `duration` are nil (JSON `null`) for an open-ended workout.
        /// `fromHistory`: the parameters whose values the routine's history decided.
        case workoutStart(name: String, segments: Int?, duration: Double?, speed: Double,
                          fromHistory: [NamedValue] = [])
        case segmentStart(SegmentSummary, info: JSONValue)
        case cue(index: Int, offset: Double, text: String?)
        /// `by`: its planned end, an open segment's cap, the athlete, or a hook.
        case segmentEnd(index: Int, name: String, kind: String, skipped: Bool, by: SegmentEndCause)
        /// `text` is what the event shows; a notification also carries its parts, a
        /// sound its notes.
        case alert(Alert, text: String, AlertDetail?)
        case log(text: String)
        /// The routine called `record(name, value, options?)`, or a segment recorded its score.
        case score(Score)
        /// A tally counted: `add` to `name`, now `value` (`r`, the page's +1, `POST /control`).
        case tally(name: String, value: Int, add: Int)
        /// The athlete pressed lap in segment `index`: lap `number`, `split` seconds since
        /// the previous lap or the segment's start.
        case lap(index: Int, number: Int, split: Double)
        case pause(index: Int, remaining: Double)
        case resume(index: Int, remaining: Double)
        /// The machine slept `missed` real seconds under the running workout, which is
        /// paused at that point (a `pause` event follows).
        case suspend(index: Int, missed: Double)
        case error(message: String, hook: String, traceback: String?)
        /// A sensor's values (at most one a second per sensor).
        case sample(SensorSample)
        /// The routine's `erg(watts)`: the trainer's target power from now on.
        case erg(watts: Int)
        /// Heart-rate steering's treadmill speed, km/h, from now on (`hr = { … }` in a
        /// segment with a pace target).
        case treadmill(kmh: Double)
        case workoutEnd(Summary)
    }

    /// `flash` is the visual bell: the live display flashes its band, for noisy rooms
    /// and muted terminals.
    public enum Alert: String, Sendable {
        case bell, notify, say, flash, sound
    }

    public var kind: Kind
    /// Workout seconds since the start (real seconds × speed; virtual in a dry run).
    public var t: Double
    /// The timer fire that caused the event, if one did.
    public var fire: Fire?
    /// What the session knows as it emits the event, so that no listener reads it back in
    /// the middle of an emit (none of it is in the event's JSON). Nil for an event made
    /// elsewhere. The session's state: `on_finish`'s `log` lines come while it is finished.
    public var state: Session.State?
    /// How the workout stands (`Session.progress()`), on `workout_start`, `segment_start`,
    /// `segment_end`, `pause` and `resume`: the history's last-resort line.
    public var progress: Summary?
    /// The segment's power for a trainer, on `segment_start` when the session's options
    /// ask for it (`SessionOptions.powerInEvents`).
    public var power: SegmentPower?
    /// The segment's clock, on `segment_start`, `pause` and `resume` (`SegmentClock`).
    public var segmentClock: SegmentClock?

    public init(_ kind: Kind, t: Double, fire: Fire?) {
        self.kind = kind
        self.t = t
        self.fire = fire
    }
}

/// A name and its value: a parameter the history decided.
public struct NamedValue: Sendable, Equatable {
    public var name: String
    public var value: JSONValue

    public init(_ name: String, _ value: JSONValue) {
        self.name = name
        self.value = value
    }
}

/// What an alert carries besides its text.
public enum AlertDetail: Sendable, Equatable {
    case notification(Notification)
    case sound(SoundAlert)
    /// Words said when a planned moment came: a player that rendered them ahead (for
    /// that moment's id) has already written them.
    case spoken(moment: UInt64)
    /// An alert of the routine's own that the switches leave off: an event for `--json`
    /// and the message line, which no player makes heard or seen.
    case unheard
}

/// A sound alert: what plays, and the planned moment it was announced with, if it was.
/// A player that heard of the moment ahead has already written it to land on time; one
/// that did not plays it at once.
public struct SoundAlert: Sendable, Equatable {
    public var sound: Sound
    /// The `PlannedMoment` id that announced it; nil for a sound asked for on the spot.
    public var moment: UInt64?
    /// How it is heard, as the alert policy decided.
    public var heard: Heard

    public enum Heard: Sendable, Equatable {
        /// Through the sound player.
        case played
        /// No sound plays in this run (none wanted, or no server): the terminal bell stands in.
        case bell
        /// Neither sound nor bell (`--no-sound` or no server, and `--no-bell`).
        case unheard
    }

    public init(sound: Sound, moment: UInt64?, heard: Heard = .played) {
        self.sound = sound
        self.moment = moment
        self.heard = heard
    }
}

extension Event {
    /// The spec's name for the event: `segment_start`.
    public var name: String {
        switch kind {
        case .workoutStart: "workout_start"
        case .segmentStart: "segment_start"
        case .cue: "cue"
        case .segmentEnd: "segment_end"
        case .alert: "alert"
        case .log: "log"
        case .score: "score"
        case .tally: "tally"
        case .lap: "lap"
        case .pause: "pause"
        case .resume: "resume"
        case .suspend: "suspend"
        case .error: "error"
        case .sample: "sample"
        case .erg: "erg"
        case .treadmill: "treadmill"
        case .workoutEnd: "workout_end"
        }
    }
}
