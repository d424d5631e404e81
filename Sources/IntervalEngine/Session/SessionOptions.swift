/// Which automatic alerts a session gives. Alerts the routine asks for itself
/// (`bell()`, `notify()`, `say()`) are always recorded; these switch the automatic ones.
public struct SessionOptions: Sendable {
    /// A bell at each boundary and for the countdown (`--no-bell` turns it off).
    public var bell: Bool
    /// A desktop notification at each segment start.
    public var notify: Bool
    /// Speak each segment's name, the countdown and text cues (`--voice`).
    public var voice: Bool

    /// Put each segment's `info` in `segment_start` events. Converting the Lua table is
    /// work on the fire path, so outputs that never show it (plain lines, the status
    /// line) turn it off.
    public var payloadsInEvents: Bool

    public init(bell: Bool = true, notify: Bool = false, voice: Bool = false, payloadsInEvents: Bool = true) {
        self.bell = bell
        self.notify = notify
        self.voice = voice
        self.payloadsInEvents = payloadsInEvents
    }
}

/// How a workout ended, for `on_finish`, the summary and the history.
public struct Summary: Sendable, Equatable {
    public var completed: Bool
    public var segmentsDone: Int
    public var segmentsSkipped: Int
    public var segments: Int
    /// Workout seconds from start to end, pauses included.
    public var elapsed: Double
    /// Seconds spent in `work` segments, pauses excluded.
    public var workSeconds: Double
    /// Workout seconds per real second (`--speed`): a sped-up test run is not a workout.
    public var speed: Double = 1
    /// What the routine's `record` calls kept, the last value per name, in the order the
    /// names were first recorded; scores recorded by `on_finish` are in it too.
    public var scores: [Score] = []
}

/// How a segment ended, per position in the timeline.
enum Outcome: UInt8 {
    case pending, done, skipped
}
