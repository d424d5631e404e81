import WorkoutValues

/// A running workout: walks the timeline on a scheduler, calls the routine's hooks and
/// publishes everything to its listeners: each event, and each moment it plans before
/// the moment comes. Controllers drive it with `apply(_:)`; viewers read `snapshot()`.
/// It owns its timers and, through the routine, its Lua references; finishing releases
/// both, and nothing else keeps the session alive (timer actions hold it weakly).
///
/// All of it runs on one thread: the main run loop, or the caller of a virtual clock. It
/// is not `@MainActor` yet, for reasons docs/design.md's Threads gives.
public final class Session {
    /// Ready, running, paused or finished: the `SessionState` snapshots carry.
    public typealias State = SessionState

    public let routine: Routine
    let scheduler: any Scheduler
    public let options: SessionOptions
    /// Who hears the events and the planned moments, in the order they subscribed.
    private(set) var listeners: [any SessionListener] = []

    /// The phase, the segment and its clock, the counts: the pure part, whose inputs
    /// return the actions the session carries out (`carryOut`).
    var machine = SessionMachine()
    /// Where the session is: ready, running or paused (either with a boundary's hooks in
    /// progress), or finished (`SessionPhase`).
    var phase: SessionPhase {
        get { machine.phase }
        set { machine.phase = newValue }
    }
    public var state: State { phase.state }
    /// The current segment, its duration changed by `extend`.
    public internal(set) var segment: Segment {
        get { machine.segment }
        set { machine.segment = newValue }
    }
    /// Workout time at which the current segment started, moved later by pauses.
    public var segmentStart: Double { machine.segmentStart }
    /// The current segment's timers still to fire, with the moment each was announced as
    /// (nil for the session's own bookkeeping timers).
    var timers: [(token: TimerToken, moment: PlannedMoment?)] = []
    /// The fire being handled, stamped on the events it causes.
    var currentFire: Fire?
    /// The latest moment whose timer fired ahead of it (`plan`): the session's clock reads
    /// it until the scheduler's catches up.
    var ranAheadTo: Double = 0
    /// A boundary whose next segment is not made yet (a follower's feed), kept to go on
    /// with when it comes (`segmentsArrived`).
    var awaiting: AwaitedSegment?
    var disabledHooks: Set<RoutineReference> = []
    /// What the hooks asked to be heard that is still waiting or playing (`HeardLimits`).
    var hookSounds = WaitingToBeHeard()
    var hookSpeech = WaitingToBeHeard()
    var startedAt: Double = 0
    /// The scheduler's clock at `workout_start`: 0 but for a follower, whose clock is
    /// the coach's (`workout follow` says where it joined).
    public var startTime: Double { startedAt }
    /// How each segment ended, and the counts of the summary.
    var tally: SegmentTally { machine.tally }
    var workSeconds: Double { machine.workSeconds }
    /// Workout seconds spent paused, for a generator's `run.elapsed`.
    var pausedSeconds: Double { machine.pausedSeconds }
    /// What `record` kept so far.
    var scores: [Score] = []
    /// The tallies counted so far (`r`, the page's +1), in the order first counted.
    var tallies: [TallyCount] { machine.tallies }
    /// The current segment's lap splits.
    var laps: [Double] { machine.laps }
    /// How the open segments that ended went, for the history.
    var openRecords: [OpenSegmentRecord] = []
    public internal(set) var summary: Summary?
    /// The latest message a viewer shows, and how many there have been.
    var message: SessionMessage?
    var messageCount = 0
    /// The current and next segments' `info` as JSON, for snapshots.
    var infoCache: [(index: Int, info: JSONValue)] = []
    /// The sensors' latest values and the session's totals of them (`Session+Sensors`).
    var sensors = SensorReadings()
    /// The metres covered in the current segment, for distance steps.
    var distance = SegmentDistance()
    /// The same counted over the whole run, never restarted: what a sample's distance says.
    var runDistance = SegmentDistance()
    /// The heart-rate steering of the segment that has `hr = { … }`, by its index.
    var steering: (index: Int, controller: HeartRateSteering)?
    /// It steers a treadmill's speed rather than a trainer's watts.
    var treadmillSteering = false
    /// Which alerts each moment makes (`AlertPolicy`): the switches and the routine's sounds.
    public let alertPolicy: AlertPolicy

    /// `onEvent`, when given, is subscribed first: a shorthand for tests and small tools.
    public init(routine: Routine, scheduler: any Scheduler, options: SessionOptions = SessionOptions(),
                onEvent: ((Event) -> Void)? = nil) {
        self.routine = routine
        self.scheduler = scheduler
        self.options = options
        if let onEvent { listeners.append(EventClosure(onEvent)) }
        alertPolicy = AlertPolicy(switches: options.alerts, sounds: routine.sounds)
        // An open-ended routine may have no segment before its generator has run.
        machine.segment = routine.timeline.segments.first ?? Segment.none
        machine.tally = SegmentTally(count: routine.timeline.count)
    }

    var timeline: Timeline { routine.timeline }

    /// Adds a listener: it hears every event from now on, after those subscribed before.
    public func subscribe(_ listener: any SessionListener) {
        listeners.append(listener)
    }

    /// Adds a closure that hears every event.
    public func subscribe(_ body: @escaping (Event) -> Void) {
        listeners.append(EventClosure(body))
    }

    /// The session's clock, in workout seconds: the scheduler's, except that a moment
    /// whose hooks ran ahead of it (`Scheduler.runAhead`) is already now, and the clock
    /// stays there until the scheduler's passes it, so that it never goes back.
    var now: Double { max(scheduler.now, ranAheadTo) }

    /// Seconds of the current segment done, pauses excluded.
    public var elapsedInSegment: Double { elapsedInSegment(at: now) }

    /// The same as of `now` (scheduler time): a snapshot reads the clock once, so all of
    /// its times agree to the nanosecond.
    func elapsedInSegment(at now: Double) -> Double {
        machine.elapsedInSegment(at: now)
    }

    public var remainingInSegment: Double { segment.duration - elapsedInSegment }

    /// When the current segment ends, in workout time (while running).
    public var segmentDeadline: Double { segmentStart + segment.duration }

    /// Seconds of the planned workout still to go, the current segment included; nil
    /// while an open-ended workout has segments still to come.
    public var remainingInWorkout: Double? { remainingInWorkout(segmentRemaining: remainingInSegment) }

    /// The same, with `segmentRemaining` seconds left in the current segment.
    func remainingInWorkout(segmentRemaining: Double) -> Double? {
        guard timeline.isComplete else { return nil }
        return segmentRemaining + timeline.duration - timeline.segments[segment.index - 1].end
    }

    /// How many segments the workout has, for events and hooks; nil when it is open-ended
    /// (even once its generators have ended, so that every event of a run agrees).
    var segmentCount: Int? { timeline.isOpenEnded ? nil : timeline.count }

    /// The alerts the first segment's start gives the moment the workout starts, known
    /// before it does: a listener that needs time ahead of them (the music lowered under
    /// the first words) gets ready before `start`, as the timers give it for later moments.
    public var openingAlerts: [AlertPolicy.Alert] {
        alertPolicy.alerts(for: .segmentStart(segment, next: nextSegment))
    }

    /// Starts the workout: `workout_start`, `on_start`, then the first segment.
    public func start() {
        carryOut(machine.start())
    }

    /// What `begin` does: the clock starts, the routine's code reaches this session, and
    /// a sleep of the computer pauses it.
    func begin() {
        routine.code.actions = self
        (scheduler as? any SuspendDetecting)?.onSuspend = { [weak self] missed in self?.suspended(missed: missed) }
        startedAt = now
    }

    /// `workout_start`, then where each value the history decided came from, where a
    /// viewer shows it, and the lines the routine printed while it loaded.
    func emitWorkoutStart() {
        let followed = routine.parameters.filter { if case .history = $0.origin { true } else { false } }
        emit(.workoutStart(name: routine.name, segments: segmentCount,
                           duration: timeline.isOpenEnded ? nil : timeline.duration, speed: scheduler.speed,
                           fromHistory: followed.map { NamedValue($0.name, $0.value.json) }))
        for parameter in followed {
            emit(.log(text: parameter.originText))
        }
        for line in routine.loadLog {
            emit(.log(text: line))
        }
    }

    func pause() {
        carryOut(machine.pause(at: now))
    }

    func resume() {
        carryOut(machine.resume(at: now))
    }

    /// The machine slept under the running workout: say so and pause where it was, so
    /// the user resumes (and `on_resume` runs) when they are back, instead of the timer
    /// carrying on as if they had been there.
    func suspended(missed: Double) {
        guard state == .running else { return }
        emit(.suspend(index: segment.index, missed: missed))
        pause()
    }

    /// Ends the current segment now, marked skipped. While paused, the next segment
    /// starts paused. Called from a hook, it takes effect once the hook's boundary is done.
    func skip(by cause: SegmentEndCause = .athlete) {
        carryOut(machine.skip(by: cause, at: now))
    }

    /// Starts the current segment again from its beginning, or the previous segment when
    /// the current one is less than `options.backGrace` seconds old (`SessionMachine.back`).
    func back() {
        carryOut(machine.back(at: now, grace: options.backGrace))
    }

    /// Lengthens the current segment (or shortens it, with a negative number; a cut of
    /// all that is left ends it now, skipped).
    func extend(by seconds: Double) {
        carryOut(machine.extend(by: seconds, at: now))
    }

    /// Moves the current segment's start by `seconds` (positive: later) and keeps its
    /// length, so that its end and its cues move together: a follower put on the coach's
    /// clock (`workout follow`, docs/design.md). Nothing during a boundary's hooks.
    public func shiftSegment(by seconds: Double) {
        carryOut(machine.shiftSegment(by: seconds))
    }

    /// How the workout stands now, summed up as if it were stopped at this moment.
    public func progress() -> Summary {
        if let summary { return summary }
        // As `stop()` would: a pause's time up to now is not counted as elapsed.
        return summarySoFar(completed: false, at: phase.pausedSince ?? now, paused: pausedSeconds)
    }

    /// Quits: the workout ends now, not completed.
    func stop() {
        carryOut(machine.stop(at: now))
    }

    /// Publishes an event to every listener, in order, and keeps the message line.
    func emit(_ kind: Event.Kind) {
        if case .segmentStart = kind {
            message = nil
        } else if let (text, messageKind) = SessionMessage.text(of: kind) {
            messageCount += 1
            message = SessionMessage(text: VisibleText.escape(text), kind: messageKind, sequence: messageCount)
        }
        var event = Event(kind, t: now - startedAt, fire: currentFire.map {
            Fire(at: $0.at - startedAt, lateMs: $0.lateMs)
        })
        event.state = state
        switch kind {
        case .segmentStart:
            event.progress = progress()
            event.segmentClock = segmentClock
            if options.powerInEvents { event.power = segmentPower() }
        case .pause, .resume:
            event.progress = progress()
            event.segmentClock = segmentClock
        case .workoutStart, .segmentEnd:
            event.progress = progress()
        default:
            break
        }
        for listener in listeners {
            listener.receive(event)
        }
    }

    /// The current segment's clock as of now, for the events that move it.
    private var segmentClock: SegmentClock {
        SegmentClock(now: now, start: segmentStart, duration: segment.duration)
    }

    /// Runs a timer's work with its fire recorded for the events it causes.
    func firing(_ fire: Fire, _ body: () -> Void) {
        let outer = currentFire
        currentFire = fire
        body()
        currentFire = outer
    }
}
