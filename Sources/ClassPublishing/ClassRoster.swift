import Dispatch
import Foundation
import IntervalEngine
import PastSessions
import Synchronization
import WorkoutValues

/// The coach's roster of a class, shared between mosquitto's network thread (which hands
/// it every message on `PREFIX/participants/+` as it arrives, so that a flooding
/// participant costs the main thread nothing) and the screens that read it (the live
/// display on the main thread, the page's `/class.json` on the server's threads, the
/// history at the end). Everything under one `Mutex`; each step is a dictionary look-up.
/// A watcher (the class page's feed, `watch`) hears of each message kept as it is kept,
/// on that same network thread: the page is pushed a reading, never polls for it.
public final class ClassRoster: Sendable {
    /// What the lock keeps: the roster and who watches it.
    private struct State {
        var roster = ParticipantRoster()
        var watchers: [@Sendable (String) -> Void] = []
    }

    private let state = Mutex(State())
    private let clock: @Sendable () -> Double
    private let warn: @Sendable (String) -> Void
    public let topics: ClassTopics

    /// `clock`: the coach's seconds (monotonic); `warn` is called once, from any thread,
    /// when participant 257 is ignored.
    public init(topics: ClassTopics, clock: @escaping @Sendable () -> Double = ClassRoster.uptime,
                warn: @escaping @Sendable (String) -> Void) {
        self.topics = topics
        self.clock = clock
        self.warn = warn
    }

    @Sendable public static func uptime() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// A message on `topic` (`PREFIX/participants/NAME`); on any thread.
    @discardableResult
    public func receive(topic: String, payload: [UInt8]) -> ParticipantRoster.Outcome {
        let stem = topics.participants + "/"
        guard topic.hasPrefix(stem) else { return .refused }
        let id = String(topic.dropFirst(stem.count))
        let now = clock()
        let (outcome, participant, watchers) = state.withLock { state in
            let outcome = state.roster.receive(id: id, payload: payload, at: now)
            return (outcome, state.roster.participants[id], state.watchers)
        }
        // Only a kept message changes what a screen shows: a flood's dropped ones reach no one.
        if outcome == .kept, let participant, !watchers.isEmpty {
            let text = Self.json(participant, at: now).text
            for watcher in watchers { watcher(text) }
        }
        if outcome == .firstIgnored {
            warn("mqtt: more than \(ParticipantRoster.mostParticipants) participants on \(VisibleText.escape(topics.participants))/+; the others are ignored")
        }
        return outcome
    }

    /// `changed` is called with a participant as `/class.json` lists it (one member of its
    /// `participants`) each time a message of theirs is kept, on the thread that received it
    /// (mosquitto's), outside the roster's lock.
    public func watch(_ changed: @escaping @Sendable (String) -> Void) {
        state.withLock { $0.watchers.append(changed) }
    }

    /// The roster now, and the clock it was read at.
    public func read() -> (roster: ParticipantRoster, now: Double) {
        let now = clock()
        return (state.withLock { $0.roster }, now)
    }

    /// The participants that gave any average, for the history line.
    public func summaries() -> [ParticipantSummary] {
        state.withLock { $0.roster.summaries }
    }

    /// `/class.json`: every participant by name, with what the class page shows.
    public func json() -> String {
        let (roster, now) = read()
        let people = roster.byName.map { Self.json($0, at: now) }
        return JSONValue.object([
            ("participants", .array(people)),
            ("dropped", .integer(roster.dropped)),
            ("refused", .integer(roster.refused)),
            ("ignored", .integer(roster.ignored)),
        ]).text
    }

    /// One participant as the class page shows them, at `now` on the coach's clock.
    static func json(_ person: ParticipantRoster.Participant, at now: Double) -> JSONValue {
        .object([
            ("id", .string(person.id)),
            ("name", .string(person.name)),
            ("hr", .from(person.hr)),
            ("hr_zone", .from(person.zone)),
            ("power", .from(person.power)),
            ("zones", .array(person.zoneSeconds.map { .integer(Int($0.rounded(.down))) })),
            ("seen", .number(Number.rounded(max(0, now - person.lastSeen), places: 1))),
            ("away", .bool(person.away(at: now))),
            ("gone", .bool(person.gone)),
            ("kept", .integer(person.kept)),
            ("dropped", .integer(person.dropped)),
        ])
    }
}
