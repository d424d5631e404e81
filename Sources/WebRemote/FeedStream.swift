import Foundation

/// One viewer's Server-Sent Events: bytes the feed queued on the main thread, taken by the
/// viewer's connection task as the socket accepts them. The queue is bounded: a viewer that
/// stops reading is dropped when it fills, so it can neither make memory grow nor hold up
/// the run loop (queueing never waits).
///
/// Shared by the main thread and the viewer's task under `lock` (held across a
/// continuation's hand-over), which the compiler cannot see: hence `@unchecked Sendable`.
final class FeedStream: @unchecked Sendable {
    /// Bytes a viewer may fall behind by: hundreds of events, far more than a boundary
    /// makes, and 32 viewers' worth stays a few MiB.
    static let limit = 256 * 1024

    private let lock = NSLock()
    private var pending: [UInt8] = []
    private var waiting: CheckedContinuation<[UInt8]?, Never>?
    private var ended = false
    /// Dropped for falling behind, or let go of by its connection.
    private var dropped = false
    /// When the viewer last had taken everything queued for it.
    private var caughtUp = ContinuousClock.now
    private let limit: Int

    init(limit: Int = FeedStream.limit) {
        self.limit = limit
    }

    /// Queues bytes for the viewer. False when the viewer is gone or was just dropped for
    /// falling `limit` bytes behind: the feed forgets it.
    func push(_ bytes: [UInt8]) -> Bool {
        lock.lock()
        guard !ended else {
            lock.unlock()
            return false
        }
        if pending.count + bytes.count > limit {
            lock.unlock()
            abandon()
            return false
        }
        if let waiter = waiting {
            waiting = nil
            lock.unlock()
            waiter.resume(returning: bytes)
            return true
        }
        pending += bytes
        lock.unlock()
        return true
    }

    /// No more bytes will come: the viewer gets what is queued, then the stream ends.
    func finish() {
        lock.lock()
        ended = true
        let waiter = pending.isEmpty ? waiting : nil
        if waiter != nil { waiting = nil }
        lock.unlock()
        waiter?.resume(returning: nil)
    }

    /// The viewer is let go of: it went away, a write timed out, it fell too far behind, or
    /// its place went to a newcomer. Nothing more is queued for it, and its connection
    /// ends.
    func abandon() {
        lock.lock()
        ended = true
        dropped = true
        pending = []
        let waiter = waiting
        waiting = nil
        lock.unlock()
        waiter?.resume(returning: nil)
    }

    /// Whether the viewer went away or was dropped.
    var isGone: Bool {
        lock.lock()
        defer { lock.unlock() }
        return dropped
    }

    /// Since when the viewer has been behind; nil while it waits for more.
    var behindSince: ContinuousClock.Instant? {
        lock.lock()
        defer { lock.unlock() }
        return waiting != nil ? nil : caughtUp
    }

    /// The next bytes to send, waiting until there are some; nil at the end.
    func next() async -> [UInt8]? {
        await withCheckedContinuation { continuation in
            lock.lock()
            if !pending.isEmpty {
                let bytes = pending
                pending = []
                lock.unlock()
                continuation.resume(returning: bytes)
            } else if ended {
                lock.unlock()
                continuation.resume(returning: nil)
            } else {
                caughtUp = .now
                waiting = continuation
                lock.unlock()
            }
        }
    }
}
