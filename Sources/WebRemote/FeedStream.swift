import Foundation
import Synchronization

/// One viewer's Server-Sent Events: bytes the feed queued on the main thread, taken by the
/// viewer's connection task as the socket accepts them. The queue is bounded: a viewer that
/// stops reading is dropped when it fills, so it can neither make memory grow nor hold up
/// the run loop (queueing never waits).
///
/// Shared by the main thread and the viewer's task: its state is one value under a
/// `Mutex` (held across a continuation's hand-over, which is resumed outside it), so the
/// compiler checks that it is `Sendable`.
final class FeedStream: Sendable {
    /// Bytes a viewer may fall behind by: hundreds of events, far more than a boundary
    /// makes, and 32 viewers' worth stays a few MiB.
    static let limit = 256 * 1024

    private struct State {
        var pending: [UInt8] = []
        var waiting: CheckedContinuation<[UInt8]?, Never>?
        var ended = false
        /// Dropped for falling behind, or let go of by its connection.
        var dropped = false
        /// When the viewer last had taken everything queued for it.
        var caughtUp = ContinuousClock.now
    }

    private let state = Mutex(State())
    private let limit: Int

    init(limit: Int = FeedStream.limit) {
        self.limit = limit
    }

    /// What `push` found: the bytes queued or handed to the waiting task, the viewer gone,
    /// or the viewer too far behind.
    private enum Pushed {
        case queued
        case handed(CheckedContinuation<[UInt8]?, Never>)
        case gone
        case behind
    }

    /// Queues bytes for the viewer. False when the viewer is gone or was just dropped for
    /// falling `limit` bytes behind: the feed forgets it.
    func push(_ bytes: [UInt8]) -> Bool {
        let pushed = state.withLock { state -> Pushed in
            guard !state.ended else { return .gone }
            if state.pending.count + bytes.count > limit { return .behind }
            if let waiter = state.waiting {
                state.waiting = nil
                return .handed(waiter)
            }
            state.pending += bytes
            return .queued
        }
        switch pushed {
        case .queued: return true
        case .handed(let waiter):
            waiter.resume(returning: bytes)
            return true
        case .gone: return false
        case .behind:
            abandon()
            return false
        }
    }

    /// No more bytes will come: the viewer gets what is queued, then the stream ends.
    func finish() {
        let waiter = state.withLock { state in
            state.ended = true
            let waiter = state.pending.isEmpty ? state.waiting : nil
            if waiter != nil { state.waiting = nil }
            return waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The viewer is let go of: it went away, a write timed out, it fell too far behind, or
    /// its place went to a newcomer. Nothing more is queued for it, and its connection
    /// ends.
    func abandon() {
        let waiter = state.withLock { state in
            state.ended = true
            state.dropped = true
            state.pending = []
            defer { state.waiting = nil }
            return state.waiting
        }
        waiter?.resume(returning: nil)
    }

    /// Whether the viewer went away or was dropped.
    var isGone: Bool {
        state.withLock { $0.dropped }
    }

    /// Since when the viewer has been behind; nil while it waits for more.
    var behindSince: ContinuousClock.Instant? {
        state.withLock { $0.waiting != nil ? nil : $0.caughtUp }
    }

    /// The next bytes to send, waiting until there are some; nil at the end.
    func next() async -> [UInt8]? {
        await withCheckedContinuation { continuation in
            let now: [UInt8]?? = state.withLock { state in
                if !state.pending.isEmpty {
                    defer { state.pending = [] }
                    return .some(state.pending)
                } else if state.ended {
                    return .some(nil)
                }
                state.caughtUp = .now
                state.waiting = continuation
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }
}
