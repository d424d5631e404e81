import Broker
import ClassPublishing
import Foundation
import IntervalEngine
import Synchronization
import WorkoutValues

/// A follower's side of the broker: the coach's retained timeline, state and
/// availability read with their bounds, and the clock questions and answers
/// (`ClockOffset`). Everything it hands on arrives on the main queue; the answers are
/// stamped on mosquitto's thread as they arrive, so the queue's wait does not count.
@MainActor
public final class CoachLink {
    public nonisolated let topics: ClassTopics
    public nonisolated let connection: BrokerConnection
    /// This follower's id in its questions: answers to others' are not ours.
    nonisolated let id: String
    private nonisolated let monotonic: @Sendable () -> UInt64
    /// The questions in flight, asked here and answered on mosquitto's thread.
    private nonisolated let questions = ClockQuestions()
    /// Says a problem with what the coach's topics carry, from any thread.
    private nonisolated let warn: @Sendable (String) -> Void
    /// A bad clock answer is said once a run: a stranger sending many is not many warnings.
    private nonisolated let warnedOfAnswer = Mutex(false)

    public private(set) var timeline: [UInt8]?
    public private(set) var timelineProblem: String?
    /// Counts the timeline's messages: a coach that generates segments publishes it again
    /// as it makes them, and a follower reads each new one once.
    public private(set) var timelineVersion = 0
    public private(set) var state: CoachState?
    public private(set) var online: Bool?
    public private(set) var clock = ClockOffset()
    /// Told of each change.
    public var changed: () -> Void = {}

    public init(connection: BrokerConnection, id: String, monotonic: @escaping @Sendable () -> UInt64 = Clocks.system.monotonic,
                warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.connection = connection
        self.warn = warn
        topics = ClassTopics(prefix: connection.address.prefix)
        self.id = id
        self.monotonic = monotonic
    }

    nonisolated var localSeconds: Double { Double(monotonic()) / 1e9 }

    public func start() {
        let timelineTopic = topics.timeline
        connection.subscribe(topics.timeline, largest: FollowedTimeline.largest, retained: true, tooLarge: { [self] size in
            timelineProblem = "\(timelineTopic): the timeline is \(size) bytes, more than a follower reads (\(FollowedTimeline.largest))"
            timelineVersion += 1
            changed()
        }) { [self] bytes in
            timeline = bytes
            timelineProblem = nil
            timelineVersion += 1
            changed()
        }
        connection.subscribe(topics.state, largest: CoachState.largest, retained: true) { [self] bytes in
            // Anything that is not a state is not acted on.
            guard let read = CoachState(bytes) else { return }
            state = read
            changed()
        }
        connection.subscribe(topics.availability, largest: 64, retained: true) { [self] bytes in
            online = bytes == Array(ClassTopics.online.utf8)
            changed()
        }
        connection.subscribe(BrokerConnection.Subscription(topic: topics.clockAnswers, largest: ClockAnswer.largest,
                                                           onNetworkThread: true) { [self] bytes in
            answered(bytes, at: localSeconds)
        })
        connection.start()
    }

    /// One clock question.
    public func ask() {
        let sent = localSeconds
        let number = questions.ask(at: sent)
        connection.publish(topics.clock, JSONValue.object([("id", .string("\(id)/\(number)")), ("sent", .number(sent))]).text,
                           retain: false)
    }

    /// `count` questions, `spacing` seconds apart, on the main queue.
    public func askSeveral(_ count: Int, spacing: Double = 0.03) {
        for question in 0..<count {
            DispatchQueue.main.asyncAfter(deadline: .now() + spacing * Double(question)) { [self] in
                MainActor.assumeIsolated { ask() }
            }
        }
    }

    /// On mosquitto's thread. An answer to our question with a time or speed no coach's
    /// run has is one warning, and not a sample.
    private nonisolated func answered(_ bytes: [UInt8], at received: Double) {
        let number: Int, coach: Double, speed: Double
        switch ClockAnswer.read(bytes, id: id) {
        case .notOurs:
            return
        case .bad(let why):
            let first = warnedOfAnswer.withLock { warned in
                defer { warned = true }
                return !warned
            }
            if first {
                warn("mqtt: a clock answer that is not one on \(VisibleText.escape(topics.clockAnswers)) (\(why)); "
                     + "answers like it are ignored")
            }
            return
        case .answer(let answered, let t, let answeredSpeed):
            (number, coach, speed) = (answered, t, answeredSpeed)
        }
        guard let sent = questions.answered(number) else { return }
        let sample = ClockOffset.Sample(sent: sent, coach: coach, received: received, speed: speed)
        DispatchQueue.main.async { [self] in
            MainActor.assumeIsolated {
                clock.add(sample)
                changed()
            }
        }
    }

    /// Forget the clock's samples before a fresh measure.
    public func remeasure() {
        clock = ClockOffset()
    }
}

/// A follower's clock questions in flight, by number, with their local send time: asked
/// on the main thread, answered on mosquitto's.
final class ClockQuestions: Sendable {
    private let state = Mutex((asked: [Int: Double](), next: 0))

    /// The number of a question sent at `sent` (local seconds). Past 64 unanswered, the
    /// oldest are given up.
    func ask(at sent: Double) -> Int {
        state.withLock { state in
            state.next += 1
            if state.asked.count > 64 { state.asked.removeAll() }
            state.asked[state.next] = sent
            return state.next
        }
    }

    /// When question `number` was sent; nil for one not asked, or answered already.
    func answered(_ number: Int) -> Double? {
        state.withLock { $0.asked.removeValue(forKey: number) }
    }
}
