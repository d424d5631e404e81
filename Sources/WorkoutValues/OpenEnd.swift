/// What makes a segment open: it has no fire date and ends when the athlete marks it
/// done (Enter, the page's DONE, `POST /control`, SIGUSR1), when a hook calls `done()`,
/// or at its `cap`. Its clock counts up. The segment after it is planned from the
/// moment it ended, so a rest after a set starts when the set is done.
public struct OpenEnd: Sendable, Equatable {
    /// The longest it may run: at the cap it ends as if done (`by: "cap"`). Nil: until done.
    public var cap: Double?
    /// How long it is expected to take: what `plan`, `--dry-run` and the workout's
    /// "about" total count for it (`expect`, else the cap, else a minute).
    public var expect: Double

    /// For a distance step (`work{ distance = 400 }`): the metres after which it ends, as
    /// a treadmill's, rower's or foot pod's distance counts them.
    public var distance: Double?

    /// What an open segment without `expect` or `cap` is planned as.
    public static let standardExpect = 60.0

    public init(cap: Double?, expect: Double?, distance: Double? = nil) {
        self.cap = cap
        self.expect = expect ?? cap ?? OpenEnd.standardExpect
        self.distance = distance
    }
}

/// A score a segment records by itself, without code, when it ends.
public enum SegmentScore: Sendable, Equatable {
    /// `for_time{}`: done by the athlete, its time (`time`, lower is better); at the cap,
    /// `capped` = 1 and the tallies counted so far.
    case forTime
    /// `amrap{}`: the `rounds` tally when it ends (higher is better).
    case amrap
}

/// How a segment ended, as `segment_end`'s `by` says it.
public enum SegmentEndCause: String, Sendable, Equatable {
    /// Its planned end came.
    case timer
    /// An open segment reached its cap.
    case cap
    /// The athlete: done, or next (a key, the page, `POST /control`, SIGUSR1).
    case athlete
    /// A hook's `done()` or `skip()`.
    case hook
    /// A sample met the segment's condition (`until_hr_below`, `until_sample = function(s) … end`).
    case sample
    /// A distance step's metres were covered.
    case distance
}

/// What the history keeps of an open segment: how long it really took, and its laps.
public struct OpenSegmentRecord: Sendable, Equatable {
    public var index: Int
    public var name: String
    /// Seconds it ran, pauses excluded.
    public var seconds: Double
    public var by: SegmentEndCause
    /// Lap splits pressed during it, in seconds since the previous lap (or its start).
    public var laps: [Double]
    /// Heart rate and power during it, when sensors gave them.
    public var sensors: SensorSummary?

    public init(index: Int, name: String, seconds: Double, by: SegmentEndCause, laps: [Double] = [],
                sensors: SensorSummary? = nil) {
        self.index = index
        self.name = name
        self.seconds = seconds
        self.by = by
        self.laps = laps
        self.sensors = sensors
    }
}
