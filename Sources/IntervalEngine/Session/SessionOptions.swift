import WorkoutValues

/// How a session runs: which automatic alerts it gives (from the one switchboard,
/// `AlertSwitches`), and what its events carry. Alerts the routine asks for itself
/// (`bell()`, `notify()`, `say()`, `flash()`) are always events; the switches decide what is heard.
public struct SessionOptions: Sendable {
    public var alerts: AlertSwitches

    /// Put each segment's `info` in `segment_start` events. Converting the Lua table is
    /// work on the fire path, so outputs that never show it (plain lines, the status
    /// line) turn it off.
    public var payloadsInEvents: Bool

    /// The shown clock has tenths in a segment's last 3 s (`--tenths`); else whole seconds
    /// throughout (`ShownTime`). Every viewer of the session follows the snapshot's.
    public var tenths: Bool

    /// Seconds into a segment within which `back` goes to the segment before instead of
    /// restarting this one (a second press of `b` keeps going back).
    public var backGrace: Double

    /// A dry run's stand-in for the athlete: each open segment is marked done when it
    /// was expected to take (its `expect`, or `--assume`'s seconds: `Timeline.assume`).
    public var standInAthlete = false
    /// The maximum heart rate and FTP that sensors' values are read against.
    public var athlete = Athlete()
    /// Put each segment's power for a trainer (`Event.power`) in `segment_start`: reading
    /// the segment's `info` is work on the fire path, so only a run that may control a
    /// trainer asks for it.
    public var powerInEvents = false

    /// What `backGrace` is unless a caller says otherwise.
    public static let standardBackGrace = SessionCommand.standardBackGrace

    public init(alerts: AlertSwitches, payloadsInEvents: Bool = true, tenths: Bool = false,
                backGrace: Double = standardBackGrace, athlete: Athlete = Athlete()) {
        self.alerts = alerts
        self.athlete = athlete
        self.payloadsInEvents = payloadsInEvents
        self.tenths = tenths
        self.backGrace = backGrace
    }

    public init(bell: Bool = true, notify: Bool = false, voice: Bool = false, flash: Bool = false,
                sound: Bool = false, payloadsInEvents: Bool = true, tenths: Bool = false) {
        self.init(alerts: AlertSwitches(bell: bell, notify: notify, voice: voice, flash: flash, sound: sound),
                  payloadsInEvents: payloadsInEvents, tenths: tenths)
    }
}

/// How a workout ended, for `on_finish`, the summary and the history.
public struct Summary: Sendable, Equatable {
    public var completed: Bool
    public var segmentsDone: Int
    public var segmentsSkipped: Int
    public var segments: Int
    /// Workout seconds from start to end, pauses included (as the history records it).
    public var elapsed: Double
    /// `elapsed` less the time spent paused.
    public var active: Double
    /// Seconds spent in `work` segments, pauses excluded.
    public var workSeconds: Double
    /// Workout seconds per real second (`--speed`): a sped-up test run is not a workout.
    public var speed: Double = 1
    /// What the routine's `record` calls kept, the last value per name, in the order the
    /// names were first recorded; scores recorded by `on_finish` are in it too.
    public var scores: [Score] = []
    /// How long each open segment took, with its laps, in the order they ended.
    public var open: [OpenSegmentRecord] = []
}
