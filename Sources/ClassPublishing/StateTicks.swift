import IntervalEngine
import WorkoutValues

/// When `SessionPublisher` publishes the state again while nothing happens: a little after
/// the shown second turns (off the session's own timers), and never sooner than a real
/// second after the last state published. One timer of the session's scheduler (the main
/// run loop's, beside the workout's, in a real run; the virtual clock in a test,
/// Tests/UnitTests/StateTicksTests.swift), set anew after each state.
@MainActor
public final class StateTicks {
    private let scheduler: any Scheduler
    private let fire: () -> Void
    private var tick: TimerToken?
    /// The scheduler's time of the last state published.
    private var lastPublished: Double

    /// How long after the shown second turns the state goes: the display's own redraw and
    /// the session's timers first.
    nonisolated public static let afterTurn = 0.02

    /// `fire`: publish the state (and call `published` and `next` again).
    public init(scheduler: any Scheduler, fire: @escaping () -> Void) {
        self.scheduler = scheduler
        self.fire = fire
        lastPublished = scheduler.now
    }

    /// A state went out now.
    public func published() {
        lastPublished = scheduler.now
    }

    /// Sets the next tick from the snapshot the last state was made of: while running,
    /// when its shown second turns and at least a real second after the last state;
    /// otherwise none.
    public func next(after now: SessionSnapshot) {
        if let tick { scheduler.cancel(tick) }
        tick = nil
        guard now.state == .running, now.current != nil else { return }
        let fraction = now.remaining - now.remaining.rounded(.down)
        let untilTurn = (fraction > 0 ? fraction : 1) / max(now.speed, 0.001) + Self.afterTurn
        let sinceLast = (scheduler.now - lastPublished) / scheduler.speed
        tick = scheduler.scheduleAside(at: scheduler.time(afterReal: max(untilTurn, 1 - sinceLast))) { [weak self] _ in
            self?.tick = nil
            self?.fire()
        }
    }

    public func stop() {
        if let tick { scheduler.cancel(tick) }
        tick = nil
    }

    /// Whether a tick is set (tests).
    public var isSet: Bool { tick != nil }
}
