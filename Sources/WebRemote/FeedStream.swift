import FlyingSocks
import Foundation

/// One viewer's Server-Sent Events: bytes the feed queued on the main thread, taken by
/// the HTTP library's connection task as the socket accepts them. The queue is bounded:
/// a viewer that stops reading is dropped when it fills, so it can neither make memory
/// grow nor hold up the run loop (queueing never waits).
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
            ended = true
            dropped = true
            pending = []
            let waiter = waiting
            waiting = nil
            lock.unlock()
            waiter?.resume(returning: nil)
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

    /// The connection stopped taking bytes (its task ended: the viewer went away or a
    /// write timed out): nothing more is queued for it.
    func abandon() {
        lock.lock()
        ended = true
        dropped = true
        pending = []
        lock.unlock()
    }

    /// Whether the viewer went away or was dropped.
    var isGone: Bool {
        lock.lock()
        defer { lock.unlock() }
        return dropped
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
                waiting = continuation
                lock.unlock()
            }
        }
    }
}

/// A stream as the body of an HTTP response (sent chunked, each push as it comes).
struct FeedBytes: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8

    private let reader: Reader

    init(_ stream: FeedStream) {
        reader = Reader(stream)
    }

    func makeAsyncIterator() -> Iterator { Iterator(reader: reader) }

    /// Tells the stream when the connection lets go of it: the body lives as long as the
    /// library holds the response, whether sending it went well or not.
    final class Reader: @unchecked Sendable {
        let stream: FeedStream

        init(_ stream: FeedStream) {
            self.stream = stream
        }

        deinit { stream.abandon() }
    }

    struct Iterator: AsyncBufferedIteratorProtocol {
        private let reader: Reader
        private var stream: FeedStream { reader.stream }
        private var buffer: [UInt8] = []
        private var position = 0

        init(reader: Reader) {
            self.reader = reader
        }

        mutating func next() async throws -> UInt8? {
            guard let chunk = try await nextBuffer(suggested: 1) else { return nil }
            return chunk.first
        }

        mutating func nextBuffer(suggested count: Int) async throws -> ArraySlice<UInt8>? {
            if position == buffer.count {
                guard let more = await stream.next() else { return nil }
                buffer = more
                position = 0
            }
            let end = Swift.min(buffer.count, position + Swift.max(1, count))
            defer { position = end }
            return buffer[position..<end]
        }
    }
}
