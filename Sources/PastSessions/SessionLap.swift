import Foundation

/// One timed segment as it was done: what an activity file's lap is made of. Times are
/// workout seconds (events' `t`): `start` since the session's start, `elapsed` from the
/// segment's start to its end with pauses, `timer` the same less the time paused.
public struct SessionLap: Sendable, Equatable {
    /// The segment's 1-based index; for a lap that folds several segments, the first.
    public var index: Int
    public var name: String
    /// The segment's kind (`work`, `rest`, `warmup`, `cooldown`, …); `mixed` for a lap
    /// that folds segments of different kinds.
    public var kind: String
    public var start: Double
    public var elapsed: Double
    public var timer: Double

    public init(index: Int, name: String, kind: String, start: Double, elapsed: Double, timer: Double) {
        self.index = index
        self.name = name
        self.kind = kind
        self.start = start
        self.elapsed = elapsed
        self.timer = timer
    }

    /// The longest name a lap keeps: a FIT step name or a TCX note shows little more,
    /// and it keeps the history's line short.
    public static let longestName = 48
}

/// A pause of the session: when it began (workout seconds) and how long it lasted.
public struct SessionPause: Sendable, Equatable {
    public var at: Double
    public var seconds: Double

    public init(at: Double, seconds: Double) {
        self.at = at
        self.seconds = seconds
    }
}
