/// Which automatic alerts a session gives. Alerts the routine asks for itself
/// (`bell()`, `notify()`, `say()`) are always recorded; these switch the automatic ones.
public struct SessionOptions: Sendable {
    /// A bell at each boundary and for the countdown (`--no-bell` turns it off).
    public var bell: Bool
    /// A desktop notification at each segment start.
    public var notify: Bool
    /// Speak each segment's name, the countdown and text cues (`--voice`).
    public var voice: Bool

    public init(bell: Bool = true, notify: Bool = false, voice: Bool = false) {
        self.bell = bell
        self.notify = notify
        self.voice = voice
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
}
