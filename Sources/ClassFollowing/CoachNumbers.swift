import IntervalEngine
import WorkoutValues

/// What a follower takes of the numbers the broker carries from the coach (its clock's
/// answers, its state): anyone who may publish on those topics writes them, so each is
/// checked as the command line's are before it reaches a clock, a timer or a conversion
/// to nanoseconds. A `t` of -1e12 once became a scheduler origin past `UInt64.max` (a
/// trap), and a speed of `1e999` was read as infinity.
public enum CoachNumbers {
    /// Workout seconds a coach's clock, deadline or segment length may read: a year at
    /// `--speed`'s highest, far past any workout, and still exact to the microsecond.
    public static let latestTime = 366 * 24 * 3600 * RunLoopScheduler.speeds.upperBound

    /// A time of the coach's workout: finite, from 0 to `latestTime`; nil otherwise.
    public static func time(_ value: Double?) -> Double? {
        guard let value, value.isFinite, value >= 0, value <= latestTime else { return nil }
        return value
    }

    /// A speed as `--speed` takes it (0.01 to 10,000); nil otherwise.
    public static func speed(_ value: Double?) -> Double? {
        guard let value, RunLoopScheduler.speeds.contains(value) else { return nil }
        return value
    }
}
