/// The current segment's clock as the session reads it when it emits an event, on the
/// scheduler's clock (workout seconds): so that a listener that follows the segment's
/// seconds (a trainer's ramp, `TrainerControl`) times itself from the event and its own
/// timers' fires, and never reads the session back inside `receive`. Carried by
/// `segment_start`, `pause` and `resume` (`Event.segmentClock`), the events that move it.
public struct SegmentClock: Sendable, Equatable {
    /// The session's clock as it emitted: the moment, when a timer ran ahead of it.
    public var now: Double
    /// When the segment started, moved later by the pauses since.
    public var start: Double
    /// The segment's length as it stands (`extend` changes it; an open one's cap, or a day).
    public var duration: Double

    public init(now: Double, start: Double, duration: Double) {
        self.now = now
        self.start = start
        self.duration = duration
    }

    /// Seconds of the segment done at `time` (not before the event's own moment, since the
    /// session's clock never goes back), within its length; the clock taken as running.
    public func elapsed(at time: Double) -> Double {
        min(max(0, max(time, now) - start), duration)
    }
}
