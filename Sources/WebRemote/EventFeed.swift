import Foundation
import IntervalEngine

/// The session's listener for web viewers: each viewer of `GET /events` gets the
/// snapshot first, then every event as `--json` prints it, and after any change a fresh
/// snapshot (`event: snapshot`), so the page counts down from a deadline it can trust
/// without a message per second. Lives on the main thread like every listener; it only
/// queues bytes on each viewer's bounded stream, so a slow viewer costs the timers
/// nothing.
public final class EventFeed: SessionListener {
    /// More viewers than a gym has screens; each may hold `FeedStream.limit` bytes.
    public static let maximumViewers = 32

    private let snapshot: () -> SessionSnapshot
    private var streams: [FeedStream] = []
    private var refreshQueued = false
    private var heartbeat: DispatchSourceTimer?

    public init(snapshot: @escaping () -> SessionSnapshot) {
        self.snapshot = snapshot
    }

    public var viewers: Int { streams.count }

    public func receive(_ event: Event) {
        send(Array("data: \(event.json.text)\n\n".utf8))
        queueRefresh()
    }

    public func planned(_ moment: PlannedMoment) { queueRefresh() }

    public func withdrawn(_ moment: PlannedMoment) { queueRefresh() }

    /// A command was applied (from a key or a button): the snapshot may have changed
    /// without an event (`+10 s` while paused).
    public func changed() { queueRefresh() }

    /// A new viewer, starting with the snapshot and a reconnection delay for the
    /// browser; nil when there are `maximumViewers` already.
    func open() -> FeedStream? {
        streams.removeAll(where: \.isGone)
        guard streams.count < EventFeed.maximumViewers else { return nil }
        let stream = FeedStream()
        _ = stream.push(Array("retry: 1000\ndata: \(snapshot().json.text)\n\n".utf8))
        streams.append(stream)
        startHeartbeat()
        return stream
    }

    /// The workout is over: every viewer gets what is queued, then its stream ends.
    public func finish() {
        heartbeat?.cancel()
        heartbeat = nil
        for stream in streams { stream.finish() }
    }

    /// Viewers gone or dropped for falling too far behind are forgotten.
    private func send(_ bytes: [UInt8]) {
        streams.removeAll { !$0.push(bytes) }
    }

    /// Several events of one boundary make one snapshot, on the next turn of the loop.
    private func queueRefresh() {
        guard !refreshQueued, !streams.isEmpty else { return }
        refreshQueued = true
        let feed = MainThreadOnly(self)
        DispatchQueue.main.async {
            feed.value.refreshQueued = false
            feed.value.send(Array("event: snapshot\ndata: \(feed.value.snapshot().json.text)\n\n".utf8))
        }
    }

    /// A comment line every 15 s: a viewer that went away without a word (a phone out of
    /// range) fails a write and is forgotten, instead of holding one of the 32 places.
    private func startHeartbeat() {
        guard heartbeat == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + 15, repeating: 15, leeway: .seconds(1))
        let feed = MainThreadOnly(self)
        timer.setEventHandler { feed.value.send(Array(":\n\n".utf8)) }
        timer.resume()
        heartbeat = timer
    }
}

/// Carries a main-thread object through `@Sendable` closures that run on the main
/// queue, and only there.
struct MainThreadOnly<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
