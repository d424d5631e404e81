import Foundation
import IntervalEngine
import WorkoutValues

/// The session's listener for web viewers: each viewer of `GET /events` gets the
/// snapshot first, then every event as `--json` prints it, and after any change a fresh
/// snapshot (`event: snapshot`), so the page counts down from a deadline it can trust
/// without a message per second. Lives on the main thread like every listener
/// (`@MainActor`: the server's tasks reach it through `onMain`); it only queues bytes on
/// each viewer's bounded stream, so a slow viewer costs the timers nothing.
@MainActor
public final class EventFeed: @preconcurrency SessionListener {
    /// More viewers than a gym has screens; each may hold `FeedStream.limit` bytes.
    nonisolated public static let maximumViewers = 32

    private let snapshot: () -> SessionSnapshot
    private var audience = Viewers(most: EventFeed.maximumViewers)
    private var refreshQueued = false
    private var heartbeat: DispatchSourceTimer?

    public init(snapshot: @escaping () -> SessionSnapshot) {
        self.snapshot = snapshot
    }

    public var viewers: Int { audience.count }

    public func receive(_ event: Event) {
        send(EventFeed.message("data: ", event.json))
        queueRefresh()
    }

    public func planned(_ moment: PlannedMoment) { queueRefresh() }

    public func withdrawn(_ moment: PlannedMoment) { queueRefresh() }

    /// A command was applied (from a key or a button): the snapshot may have changed
    /// without an event (`+10 s` while paused).
    public func changed() { queueRefresh() }

    /// A new viewer, starting with the snapshot and a reconnection delay for the
    /// browser; with `maximumViewers` already, it takes the place of one that fell behind
    /// (`Viewers`).
    func open() -> FeedStream? {
        let stream = audience.admit(first: EventFeed.message("retry: 1000\ndata: ", snapshot().json))
        startHeartbeat()
        return stream
    }

    /// A message of the feed: `prefix`, the JSON and a blank line. A message larger than
    /// `largestMessage` (a segment's info of hundreds of KiB) has each `info` replaced by a
    /// short text saying so, and `"info_shortened": true` beside it: a viewer's queue takes
    /// every message, and the page still follows the workout.
    static func message(_ prefix: String, _ json: JSONValue) -> [UInt8] {
        var text = json.text
        if text.utf8.count > largestMessage {
            text = shortened(json).text
        }
        if text.utf8.count > largestMessage {
            text = clipped(shortened(json)).text
        }
        return Array("\(prefix)\(text)\n\n".utf8)
    }

    /// The last resort for a message still too large (a huge log line or message): every
    /// text over 1 KiB cut to its first 1,024 characters and `… (shortened)`.
    private static func clipped(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text) where text.utf8.count > 1024: .string(String(text.prefix(1024)) + "… (shortened)")
        case .object(let members): .object(members.map { ($0.0, clipped($0.1)) })
        case .array(let items): .array(items.map(clipped))
        default: value
        }
    }

    /// Far above any event or snapshot but one with an enormous info, and a quarter of a
    /// viewer's queue.
    static let largestMessage = 64 * 1024

    private static func shortened(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            var result: [(String, JSONValue)] = []
            for (name, member) in members {
                if name == "info" {
                    let size = member.text.utf8.count
                    result.append((name, .string("(\((size + 1023) / 1024) KiB of info: too large to send)")))
                    result.append(("info_shortened", .bool(true)))
                } else {
                    result.append((name, shortened(member)))
                }
            }
            return .object(result)
        case .array(let items): return .array(items.map(shortened))
        default: return value
        }
    }

    /// The workout is over: every viewer gets what is queued, then its stream ends.
    public func finish() {
        heartbeat?.cancel()
        heartbeat = nil
        audience.finish()
    }

    /// Viewers gone or dropped for falling too far behind are forgotten.
    private func send(_ bytes: [UInt8]) {
        audience.send(bytes)
    }

    /// Several events of one boundary make one snapshot, on the next turn of the loop.
    private func queueRefresh() {
        guard !refreshQueued, !audience.isEmpty else { return }
        refreshQueued = true
        DispatchQueue.main.async { [self] in
            refreshQueued = false
            send(EventFeed.message("event: snapshot\ndata: ", snapshot().json))
        }
    }

    /// A comment line every 15 s: a viewer that went away without a word (a phone out of
    /// range) fails a write and is forgotten, instead of holding one of the 32 places.
    private func startHeartbeat() {
        guard heartbeat == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + 15, repeating: 15, leeway: .seconds(1))
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated { self?.send(Array(":\n\n".utf8)) }
        }
        timer.resume()
        heartbeat = timer
    }
}
