/// When a timer fired: its scheduled time and how late the fire was.
public struct Fire: Sendable, Equatable {
    /// The scheduled time, in workout seconds.
    public var at: Double
    /// Real milliseconds between the fire date and the fire (0 on the virtual clock).
    public var lateMs: Double

    public init(at: Double, lateMs: Double) {
        self.at = at
        self.lateMs = lateMs
    }
}

/// Identifies one scheduled action so it can be cancelled.
public struct TimerToken: Hashable, Sendable {
    let id: UInt64
}

/// Where a session's timers live: the run loop for real workouts, a virtual clock for
/// dry runs and tests. Times are workout seconds from the scheduler's origin, so
/// `--speed` is the scheduler's business, not the session's.
public protocol Scheduler: AnyObject {
    /// Workout seconds since the origin.
    var now: Double { get }
    /// How many workout seconds pass per real second.
    var speed: Double { get }
    /// Runs `action` once at `time` (at once, on the next turn, if `time` has passed).
    @discardableResult
    func schedule(at time: Double, _ action: @escaping (Fire) -> Void) -> TimerToken
    /// Runs `action` once at `time`, as `schedule(at:_:)` does, for a listener's own timer
    /// (a ramp's step, the music's next change, a sensor's retry): not one of the
    /// workout's, so a sleep is noticed at the workout's timers only, and one left pending
    /// while the workout is paused does not make a sleep in the pause count (a run loop's
    /// scheduler, `RunLoopScheduler`; elsewhere the same as `schedule`). Cancelled by `cancel`.
    @discardableResult
    func scheduleAside(at time: Double, _ action: @escaping (Fire) -> Void) -> TimerToken
    func cancel(_ token: TimerToken)
    /// Where `time` falls in nanoseconds of CLOCK_MONOTONIC (virtual nanoseconds on a
    /// virtual clock): what a listener needs to act ahead of a planned moment.
    func deadline(for time: Double) -> UInt64
    /// Actions scheduled and not yet run or cancelled.
    var pendingCount: Int { get }
    /// How long before its moment a session's planned action runs, in workout seconds
    /// (`Session.plan`): 0 on a virtual clock.
    var runAhead: Double { get }
}

extension Scheduler {
    /// Where a clock has no sleeps to notice, a listener's timer is any timer.
    @discardableResult
    public func scheduleAside(at time: Double, _ action: @escaping (Fire) -> Void) -> TimerToken {
        schedule(at: time, action)
    }
}
