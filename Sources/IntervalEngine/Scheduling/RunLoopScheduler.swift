import Foundation

/// Real timers: one Foundation `Timer` per scheduled action, created with its fire date
/// and added to the run loop. Deadlines come from the monotonic plan; each `Timer` is
/// created at the moment it is scheduled, from `wall now + (deadline − monotonic now)`,
/// because the run loop fixes a timer's monotonic deadline when the timer is created
/// (SPEC §9).
public final class RunLoopScheduler: Scheduler {
    public let speed: Double
    private let clocks: Clocks
    private let runLoop: RunLoop
    private let origin: UInt64
    private var timers: [UInt64: Timer] = [:]
    private var nextID: UInt64 = 0

    public init(speed: Double = 1, runLoop: RunLoop = .main, clocks: Clocks = .system) {
        self.speed = speed
        self.clocks = clocks
        self.runLoop = runLoop
        origin = clocks.monotonic()
    }

    deinit {
        for timer in timers.values { timer.invalidate() }
    }

    public var now: Double {
        Double(clocks.monotonic() &- origin) / 1e9 * speed
    }

    public var pendingCount: Int { timers.count }

    /// The monotonic deadline, in nanoseconds, for a workout time.
    func deadline(for time: Double) -> UInt64 {
        origin &+ UInt64(max(0, (time / speed * 1e9).rounded()))
    }

    @discardableResult
    public func schedule(at time: Double, _ action: @escaping (Fire) -> Void) -> TimerToken {
        nextID += 1
        let id = nextID
        let deadline = deadline(for: time)
        let delay = (Double(deadline) - Double(clocks.monotonic())) / 1e9
        let target = TimerTarget(scheduler: self, id: id, time: time, deadline: deadline, action: action)
        let timer = Timer(fire: clocks.wall().addingTimeInterval(delay), interval: 0, repeats: false) { _ in
            target.fire()
        }
        timers[id] = timer
        runLoop.add(timer, forMode: .common)
        return TimerToken(id: id)
    }

    public func cancel(_ token: TimerToken) {
        timers.removeValue(forKey: token.id)?.invalidate()
    }

    fileprivate func fired(_ target: TimerTarget) {
        guard timers.removeValue(forKey: target.id) != nil else { return }
        let late = (Double(clocks.monotonic()) - Double(target.deadline)) / 1e6
        target.action(Fire(at: target.time, lateMs: late))
    }
}

/// What a `Timer`'s block holds: the action, and the scheduler only weakly, so a timer
/// never keeps a finished session alive. Timers fire on the main run loop, the only
/// thread that touches the scheduler.
private final class TimerTarget: @unchecked Sendable {
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
