import Broker
import Foundation
import IntervalEngine
import RemoteControl
import WorkoutValues

/// `run --mqtt`: the session on a broker. A listener like the live display: every event
/// goes to `PREFIX/events` as `--json` prints it, and the snapshot to the retained
/// `PREFIX/state` after every change and, while running, once a second as the shown clock
/// turns (never more often than once a real second but for changes). The routine's
/// timeline (`PublishedTimeline`: again whenever a generator made segments), `online` and
/// Home Assistant's discovery configs are retained at the start;
/// `offline` at the end, or as the broker's last will when the process dies. Commands on
/// `PREFIX/cmd` are read by the served page's parser and applied on the main thread; the
/// participants' readings on `PREFIX/participants/+` go to the class's `ClassRoster`.
///
/// Lives on the main thread, as every listener does (`@MainActor`); publishing only queues
/// a message for mosquitto's network thread, so the timers never wait on the network.
@MainActor
public final class SessionPublisher: @preconcurrency SessionListener {
    public let topics: ClassTopics
    private let connection: BrokerConnection
    private let snapshot: () -> SessionSnapshot
    private let ftp: Double?
    private let control: (SessionCommand) -> Void
    private let warn: @Sendable (String) -> Void
    /// The routine's latest `erg(watts)` in this segment, over the segment's own target.
    private var ergWatts: Int?
    private var refreshQueued = false
    private var lastState: String?
    private let scheduler: any Scheduler
    /// The next state while nothing happens, on the session's scheduler.
    private lazy var ticks = StateTicks(scheduler: scheduler) { [weak self] in
        guard let self, !finished else { return }
        publishState()
    }
    private var warnedRefusal = false
    private var finished = false
    /// The final state is out (`workout_end`); `finish` adds only `offline`.
    private var ended = false
    /// The session's clock as the network thread reads it for a follower's question.
    private let clock = CoachClock()

    /// The timeline of any routine a person writes fits many times over; past this (a
    /// generated one with large infos) it only says it was too large.
    nonisolated public static let largestTimeline = 4 * 1024 * 1024
    /// The routine whose timeline is published, again as its generators make segments.
    private var routine: Routine?
    private var timeline = PublishedTimeline(largest: largestTimeline)

    /// `scheduler`: the session's, whose clock `snapshot` reads; the state's ticks are its timers.
    public init(connection: BrokerConnection, snapshot: @escaping () -> SessionSnapshot, scheduler: any Scheduler,
                ftp: Double?, control: @escaping (SessionCommand) -> Void, warn: @escaping @Sendable (String) -> Void) {
        self.connection = connection
        topics = ClassTopics(prefix: connection.address.prefix)
        self.snapshot = snapshot
        self.ftp = ftp
        self.control = control
        self.warn = warn
        self.scheduler = scheduler
    }

    /// The retained messages, the command topic, and the connection's thread. Before the
    /// session starts, so that the first events find it connected when the broker answers
    /// at once.
    public func start(routine: Routine, version: String, roster: ClassRoster? = nil) {
        self.routine = routine
        publishTimeline()
        for config in DiscoveryConfigs.all(topics, version: version) {
            connection.publish(config.topic, config.payload.text, retain: true)
        }
        // The first state comes with `workout_start`: before it, the snapshot has no time.
        connection.publish(topics.availability, ClassTopics.online, retain: true)
        connection.subscribe(topics.command, largest: ControlRequest.largestBody) { [self] bytes in
            command(bytes)
        }
        if let roster {
            connection.subscribeOnNetworkThread(topics.participants + "/+", largest: ParticipantMessage.largest) {
                topic, bytes in roster.receive(topic: topic, payload: bytes)
            }
        }
        // Answered on mosquitto's thread at once: a question that waited behind the main
        // queue's work would make the follower's measure late.
        let clock = clock, connection = connection, answers = topics.clockAnswers
        connection.subscribe(BrokerConnection.Subscription(topic: topics.clock, largest: CoachClock.largestQuestion,
                                                           onNetworkThread: true) { bytes in
            if let answer = clock.answer(bytes) { connection.publish(answers, answer, retain: false) }
        })
        connection.start()
    }

    /// `workout plan --json`'s object with every segment made so far, when that changed:
    /// at the start, and then as a generator makes segments and when it ends.
    private func publishTimeline() {
        guard let routine, let payload = timeline.payload(routine) else { return }
        connection.publish(topics.timeline, payload, retain: true)
    }

    public func receive(_ event: Event) {
        guard !finished else { return }
        // A segment made at this boundary goes out before the event and the state that
        // name it: a follower has it when it hears of it (one connection keeps the order).
        publishTimeline()
        switch event.kind {
        case .workoutStart(_, _, _, let speed, _): clock.started(speed: speed)
        case .segmentStart: ergWatts = nil
        case .erg(let watts): ergWatts = watts
        default: break
        }
        connection.publish(topics.events, event.json.text, retain: false)
        if case .workoutEnd = event.kind {
            publishState()
            ended = true
        } else {
            queueRefresh()
        }
    }

    public func planned(_ moment: PlannedMoment) { queueRefresh() }

    public func withdrawn(_ moment: PlannedMoment) { queueRefresh() }

    /// A command was applied (a key, the page, the broker): the state may have changed
    /// without an event (`+10 s` while paused).
    public func commandApplied() { queueRefresh() }

    /// The workout is over: the last state and `offline` go out, then the connection
    /// closes cleanly (the broker keeps the will to itself).
    public func finish() {
        guard !finished else { return }
        if !ended { publishState() }
        finished = true
        ticks.stop()
        connection.close(lastWords: (topics.availability, ClassTopics.offline))
    }

    /// Several events of one boundary make one state, on the next turn of the loop.
    private func queueRefresh() {
        guard !refreshQueued, !finished else { return }
        refreshQueued = true
        DispatchQueue.main.async { [self] in
            refreshQueued = false
            if !finished { publishState() }
        }
    }

    private func publishState() {
        let now = snapshot()
        let watts = ergWatts ?? StatePayload.targetWatts(now, ftp: ftp)
        let text = StatePayload.json(now, targetWatts: watts).text
        if text != lastState {
            connection.publish(topics.state, text, retain: true)
            lastState = text
            ticks.published()
        }
        ticks.next(after: now)
    }

    /// A message on `PREFIX/cmd`, on the main thread.
    private func command(_ bytes: [UInt8]) {
        guard !finished else { return }
        do {
            let command = try ControlRequest.command(from: Data(bytes))
            control(command)
            commandApplied()
        } catch {
            connection.publish(topics.refused, error.message, retain: false)
            guard !warnedRefusal else { return }
            warnedRefusal = true
            warn("mqtt: refused a command on \(VisibleText.escape(topics.command)): \(error.message) (later refusals go to \(VisibleText.escape(topics.refused)) only)")
        }
    }
}
