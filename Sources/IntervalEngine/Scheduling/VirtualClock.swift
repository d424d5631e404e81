import Platform

/// A clock that only moves when told to: actions run in `(time, order scheduled)`
/// order with `now` set to each one's time. A whole workout runs in milliseconds, with
/// exact times, and tests never sleep.
public final class VirtualClock: Scheduler {
    private struct Entry {
        var time: Double
        var sequence: UInt64
        var action: (Fire) -> Void
    }

    public private(set) var now: Double = 0
    public let speed: Double = 1
    /// 0 unless a test sets it: a real run's moments run ahead (`RunLoopScheduler.runAhead`).
    public var runAhead: Double = 0
    /// Kept sorted latest first, so the next action is popped from the end.
    private var entries: [Entry] = []
    private var nextSequence: UInt64 = 0

    public init() {}

    public var pendingCount: Int { entries.count }

    @discardableResult
    public func schedule(at time: Double, _ action: @escaping (Fire) -> Void) -> TimerToken {
        nextSequence += 1
        let entry = Entry(time: max(time, now), sequence: nextSequence, action: action)
        // Binary search for the first entry that runs before the new one.
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            let other = entries[middle]
            if other.time > entry.time || (other.time == entry.time && other.sequence > entry.sequence) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        entries.insert(entry, at: low)
        return TimerToken(id: nextSequence)
    }

    public func deadline(for time: Double) -> UInt64 { nanoseconds(time) }

    public func cancel(_ token: TimerToken) {
        entries.removeAll { $0.sequence == token.id }
    }

    /// How many actions the clock runs in all before it refuses to run more: a session that
    /// plans without end at one moment (a hook that skips every segment an open-ended
    /// generator makes) would otherwise keep `run` from returning. A test or a dry run sees
    /// `reachedStepLimit` and says so, instead of hanging.
    public var stepLimit = 10_000_000
    /// Actions run so far.
    public private(set) var steps = 0
    public var reachedStepLimit: Bool { steps >= stepLimit && !entries.isEmpty }

    /// Runs actions until none is left, until the next is after `limit`, or until the
    /// step limit. Returns whether everything ran.
    @discardableResult
    public func run(until limit: Double = .infinity) -> Bool {
        while let entry = entries.last {
            guard entry.time <= limit, steps < stepLimit else { return false }
            steps += 1
            entries.removeLast()
            now = entry.time
            entry.action(Fire(at: entry.time, lateMs: 0))
        }
        return true
    }

    /// Runs the actions due within `seconds` from now, then sets `now` to that time.
    public func advance(by seconds: Double) {
        let target = now + seconds
        run(until: target)
        now = max(now, target)
    }
}
