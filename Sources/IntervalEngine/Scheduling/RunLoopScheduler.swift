import Foundation
import Platform

/// Real timers: one Foundation `Timer` per scheduled action, created with its fire date
/// and added to the run loop. Deadlines come from the monotonic plan; each `Timer` is
/// created at the moment it is scheduled, from `wall now + (deadline − monotonic now)`,
/// because the run loop fixes a timer's monotonic deadline when the timer is created
/// (swift-corelibs-foundation's `CFRunLoopTimer` converts a fire date once). The wall clock is read only to express the monotonic deadline as a `Date`
/// at that moment, so a wall-clock jump moves no timer.
///
/// It also watches for a system suspend (see `SuspendDetector`): whenever a timer fires,
/// and by a boot-time sentinel that fires on waking from a sleep longer than the time to
/// the next timer. `onSuspend` then runs before the due timer, which is dropped if the
/// handler cancels it (a session pausing).
///
/// It lives on the main thread, where the main run loop turns (`@MainActor`; the session
/// calls it there, and the conformances check so at each call).
@MainActor
public final class RunLoopScheduler: @preconcurrency Scheduler, @preconcurrency SuspendDetecting {
    public let speed: Double
    /// A moment's hooks run this long before it (40 ms of real time), with the session's
    /// clock reading the moment: a sound a hook plays is then known before it is due and
    /// is placed on its moment as a planned one is, on a server that cannot rewind its
    /// sink (pipewire-pulse) too, and whatever the timer's lateness and the hook's own time
    /// (docs/design.md, "A moment runs ahead of itself").
    public var runAhead: Double { RunLoopScheduler.realRunAhead * speed }
    nonisolated public static let realRunAhead = 0.040
    /// The speeds `--speed` accepts: a hundredth (a 24-hour segment then lasts 100 days,
    /// still a deadline the clocks hold) to ten thousand (a 24-hour segment in under 9 s).
    nonisolated public static let speeds: ClosedRange<Double> = 0.01...10_000
    private let clocks: Clocks
    private let runLoop: RunLoop
    private let origin: UInt64
    private var timers: [UInt64: Timer] = [:]
    /// Monotonic deadlines of the workout's pending timers (not the listeners' own,
    /// `scheduleAside`), for arming the sentinel and for noticing a sleep.
    private var deadlines: [UInt64: UInt64] = [:]
    private var nextID: UInt64 = 0
    private var detector: SuspendDetector
    private var sentinel: SuspendSentinel?
    public var onSuspend: ((_ missed: Double) -> Void)?
    /// Boot-time seconds after the next deadline at which the sentinel fires (a test can
    /// make it fire before, to see a wake noticed without any timer).
    var sentinelMargin = SuspendSentinel.margin
    /// How much later than that the sentinel may fire (see `armSentinel`).
    var sentinelSlack = SuspendSentinel.slack
    /// The monotonic time, in seconds, the sentinel is armed for; nil before the first.
    private var sentinelArmedAt: Double?
    /// How many times the sentinel was armed (tests).
    private(set) var sentinelArmings = 0

    /// `watchesSuspend: false` leaves out the boot-time sentinel (suspends are then
    /// noticed only when a timer fires). `origin`: the monotonic nanoseconds at which the
    /// clock reads 0, now by default; a follower puts it where the coach's clock read 0
    /// (`workout follow`), never later than now.
    public init(speed: Double = 1, runLoop: RunLoop = .main, clocks: Clocks = .system, watchesSuspend: Bool = true,
                origin: UInt64? = nil) {
        self.speed = speed
        self.clocks = clocks
        self.runLoop = runLoop
        let now = clocks.monotonic()
        self.origin = min(origin ?? now, now)
        detector = SuspendDetector(clocks: clocks)
        if watchesSuspend {
            let scheduler = WeakScheduler()
            sentinel = SuspendSentinel { scheduler.value?.checkForSuspend() }
            scheduler.value = self
        }
    }

    isolated deinit {
        for timer in timers.values { timer.invalidate() }
    }

    public var now: Double {
        Double(clocks.monotonic() &- origin) / 1e9 * speed
    }

    public var pendingCount: Int { timers.count }

    /// The monotonic deadline, in nanoseconds, for a workout time.
    public func deadline(for time: Double) -> UInt64 {
        let offset = nanoseconds(time / speed)
        return offset > UInt64.max - origin ? UInt64.max : origin + offset
    }

    /// The `Date` for a monotonic deadline, valid at this moment only: the run loop turns
    /// it back into a monotonic deadline when the timer is added, right away.
    func fireDate(for deadline: UInt64) -> Date {
        clocks.wall().addingTimeInterval((Double(deadline) - Double(clocks.monotonic())) / 1e9)
    }

    @discardableResult
    public func schedule(at time: Double, _ action: @escaping (Fire) -> Void) -> TimerToken {
        add(at: time, aside: false, action)
    }

    @discardableResult
    public func scheduleAside(at time: Double, _ action: @escaping (Fire) -> Void) -> TimerToken {
        add(at: time, aside: true, action)
    }

    /// A timer on the run loop; the workout's (`aside` false) also count for the sentinel
    /// and the suspend check, a listener's own do not.
    private func add(at time: Double, aside: Bool, _ action: @escaping (Fire) -> Void) -> TimerToken {
        // Nothing of the workout's was pending, so nothing ran late while the machine may have slept.
        if !aside, deadlines.isEmpty { detector.reanchor() }
        nextID += 1
        let id = nextID
        // A time already past when it is asked for (the first moments of a run at a high
        // speed, whose 40 ms run-ahead reaches back before the start) can fire no earlier
        // than now: its lateness counts from here, not from before the timer existed.
        let deadline = max(deadline(for: time), clocks.monotonic())
        let target = TimerTarget(scheduler: self, id: id, time: time, deadline: deadline, action: action)
        let timer = Timer(fire: fireDate(for: deadline), interval: 0, repeats: false) { _ in
            MainActor.assumeIsolated { target.fire() }
        }
        timers[id] = timer
        if !aside {
            deadlines[id] = deadline
            armSentinel()
        }
        runLoop.add(timer, forMode: .common)
        return TimerToken(id: id)
    }

    public func cancel(_ token: TimerToken) {
        timers.removeValue(forKey: token.id)?.invalidate()
        deadlines.removeValue(forKey: token.id)
        armSentinel()
    }

    fileprivate func fired(_ target: TimerTarget) {
        guard timers[target.id] != nil else { return }
        let aside = deadlines[target.id] == nil
        if !aside { checkForSuspend() }
        guard timers.removeValue(forKey: target.id) != nil else { return }
        if !aside {
            deadlines.removeValue(forKey: target.id)
            armSentinel()
        }
        let late = (Double(clocks.monotonic()) - Double(target.deadline)) / 1e6
        target.action(Fire(at: target.time, lateMs: late))
    }

    func checkForSuspend() {
        guard !deadlines.isEmpty else { return }
        if let missed = detector.check() {
            onSuspend?(missed)
        }
    }

    /// Arms the sentinel for `sentinelMargin` after the next deadline, or up to a
    /// further `sentinelSlack` later: an armed time still in that window is kept, so the
    /// display's tenths, each a new soonest deadline, do not cost a system call each.
    /// With nothing pending it stays as it is: firing then finds nothing to check.
    private func armSentinel() {
        guard let sentinel, let next = deadlines.values.min() else { return }
        let earliest = Double(next) / 1e9 + sentinelMargin
        if let armed = sentinelArmedAt, armed >= earliest, armed - earliest <= sentinelSlack { return }
        let target = earliest + sentinelSlack
        sentinel.arm(in: target - Double(clocks.monotonic()) / 1e9)
        sentinelArmedAt = target
        sentinelArmings += 1
    }

    /// The workout's pending timers' monotonic deadlines and fire dates, soonest first (tests).
    var pendingTimers: [(deadline: UInt64, timer: Timer)] {
        deadlines.map { ($0.value, timers[$0.key]!) }.sorted { $0.deadline < $1.deadline }
    }
}

/// The sentinel's handler holds the scheduler weakly, like the timers' targets.
@MainActor
private final class WeakScheduler {
    weak var value: RunLoopScheduler?
}

/// What a `Timer`'s block holds: the action, and the scheduler only weakly, so a timer
/// never keeps a finished session alive. Timers fire on the main run loop, the only
/// thread that touches the scheduler: the target is `@MainActor`, and the block says
/// where it runs (`MainActor.assumeIsolated`, checked as it fires).
@MainActor
private final class TimerTarget {
    weak var scheduler: RunLoopScheduler?
    let id: UInt64
    let time: Double
    let deadline: UInt64
    let action: (Fire) -> Void

    init(scheduler: RunLoopScheduler, id: UInt64, time: Double, deadline: UInt64, action: @escaping (Fire) -> Void) {
        self.scheduler = scheduler
        self.id = id
        self.time = time
        self.deadline = deadline
        self.action = action
    }

    func fire() {
        scheduler?.fired(self)
    }
}
