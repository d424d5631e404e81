/// A running workout: walks the timeline on a scheduler, calls the routine's hooks and
/// publishes everything to its listeners: each event, and each moment it plans before
/// the moment comes. Controllers drive it with `apply(_:)`; viewers read `snapshot()`.
/// It owns its timers and, through the routine, its Lua references; finishing releases
/// both, and nothing else keeps the session alive (timer actions hold it weakly).
///
/// All of it runs on one thread: the main run loop, or the caller of a virtual clock.
public final class Session {
    public enum State: Sendable, Equatable {
        case ready, running, paused, finished
    }

    public let routine: Routine
    let scheduler: any Scheduler
    public let options: SessionOptions
    /// Who hears the events and the planned moments, in the order they subscribed.
    private(set) var listeners: [any SessionListener] = []

    public internal(set) var state: State = .ready
    /// The current segment, its duration changed by `extend`.
    public internal(set) var segment: Segment
    /// Workout time at which the current segment started, moved later by pauses.
    public internal(set) var segmentStart: Double = 0
    var pausedAt: Double = 0
    /// The current segment's timers still to fire, with the moment each was announced as
    /// (nil for the session's own bookkeeping timers).
    var timers: [(token: TimerToken, moment: PlannedMoment?)] = []
    var firedCues: Set<Int> = []
    /// The fire being handled, stamped on the events it causes.
    var currentFire: Fire?
    /// The planned moment whose timer is firing, so the sound it announced can name it.
    var currentMoment: PlannedMoment?
    /// True while a boundary runs its hooks: control actions wait until it is done.
    var inBoundary = false
    var segmentHasEnded = false
    var pendingSkip = false
    var pendingPause = false
    var disabledHooks: Set<LuaRef> = []
    var startedAt: Double = 0
    var segmentsDone = 0
    var segmentsSkipped = 0
    /// How each segment last ended (by position), so going back over one un-counts it.
    var outcomes: [Outcome]
    var workSeconds: Double = 0
    /// Workout seconds spent paused, for a generator's `run.elapsed`.
    var pausedSeconds: Double = 0
    /// The highest segment number started: an open-ended workout's `summary.segments`.
    var segmentsReached = 0
    /// What `record` kept so far.
    var scores: [Score] = []
    public internal(set) var summary: Summary?
    /// The latest message a viewer shows, and how many there have been.
    var message: SessionMessage?
    var messageCount = 0
    /// The current and next segments' `info` as JSON, for snapshots.
    var infoCache: [(index: Int, info: JSONValue)] = []

    /// `onEvent`, when given, is subscribed first: a shorthand for tests and small tools.
    public init(routine: Routine, scheduler: any Scheduler, options: SessionOptions = SessionOptions(),
                onEvent: ((Event) -> Void)? = nil) {
        self.routine = routine
        self.scheduler = scheduler
        self.options = options
        if let onEvent { listeners.append(EventClosure(onEvent)) }
        // An open-ended routine may have no segment before its generator has run.
        segment = routine.timeline.segments.first ?? Segment.none
        outcomes = Array(repeating: .pending, count: routine.timeline.count)
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

    /// Seconds of the current segment done, pauses excluded.
    public var elapsedInSegment: Double { elapsedInSegment(at: scheduler.now) }

    /// The same as of `now` (scheduler time): a snapshot reads the clock once, so all of
    /// its times agree to the nanosecond.
    func elapsedInSegment(at now: Double) -> Double {
        min(max(0, (state == .paused ? pausedAt : now) - segmentStart), segment.duration)
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

    public func start() {
        guard state == .ready else { return }
        state = .running
        routine.lua.actions = self
        (scheduler as? any SuspendDetecting)?.onSuspend = { [weak self] missed in self?.suspended(missed: missed) }
        startedAt = scheduler.now
        emit(.workoutStart(name: routine.name, segments: segmentCount,
                           duration: timeline.isOpenEnded ? nil : timeline.duration, speed: scheduler.speed))
        for line in routine.loadLog {
            emit(.log(text: line))
        }
        inBoundary = true
        callHook(routine.hooks.onStart, "on_start") { lua in lua.pushWorkout(self.routine) }
        // No segment is running while a generator makes the first one: `extend` from it
        // must not act on the stand-in.
        segmentHasEnded = true
        if timeline.count > 0 || pullSegment(at: startedAt) {
            startSegment(0, at: startedAt)
        } else {
            finish(completed: !timeline.reachedHorizon, at: startedAt)
        }
    }

    func pause() {
        guard state == .running else { return }
        if inBoundary {
            pendingPause = true
            return
        }
        cancelTimers()
        pausedAt = scheduler.now
        state = .paused
        emit(.pause(index: segment.index, remaining: remainingInSegment))
        if options.sound, let sound = routine.sounds.pause { play(sound) }
        callSegmentHook(routine.hooks.onPause, "on_pause")
    }

    func resume() {
        guard state == .paused else { return }
        segmentStart += scheduler.now - pausedAt
        pausedSeconds += scheduler.now - pausedAt
        state = .running
        scheduleTimers()
        emit(.resume(index: segment.index, remaining: remainingInSegment))
        if options.sound, let sound = routine.sounds.resume { play(sound) }
        callSegmentHook(routine.hooks.onResume, "on_resume")
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
    func skip() {
        guard state == .running || state == .paused else { return }
        if inBoundary {
            pendingSkip = true
            return
        }
        endSegment(at: state == .paused ? segmentStart + elapsedInSegment : scheduler.now, skipped: true)
    }

    /// Seconds into a segment within which `back()` goes to the previous segment
    /// instead of restarting this one (a second press of `b` keeps going back).
    public static let backGrace = 2.0

    /// Starts the current segment again from its beginning, or the previous segment when
    /// the current one is less than `backGrace` seconds old. The new start is a fresh
    /// `segment_start` with its hooks and alerts; the abandoned attempt has no
    /// `segment_end`, and a segment gone back over no longer counts as done. While
    /// paused, it stays paused.
    func back() {
        guard state == .running || state == .paused, !inBoundary else { return }
        let time = state == .paused ? pausedAt : scheduler.now
        var position = segment.index - 1
        if elapsedInSegment < Session.backGrace && position > 0 {
            position -= 1
            uncount(position)
        }
        cancelTimers()
        countWork(until: time)
        startSegment(position, at: time)
    }

    /// Lengthens the current segment (or shortens it, with a negative number; a cut of
    /// all that is left ends it now, skipped).
    func extend(by seconds: Double) {
        guard state == .running || state == .paused, !segmentHasEnded else { return }
        let done = elapsedInSegment
        // Taking away all that is left ends this segment as `next` does, counted as skipped,
        // and nothing more: a day taken away is not the rest of the workout done.
        guard segment.duration + seconds > done else { return skip() }
        segment.duration = min(segment.duration + seconds, Duration.maximum)
        if state == .running {
            cancelTimers()
            scheduleTimers()
        }
    }

    /// How the workout stands now, summed up as if it were stopped at this moment.
    public func progress() -> Summary {
        if let summary { return summary }
        // As `stop()` would: a pause's time up to now is not counted as elapsed.
        return summarySoFar(completed: false, at: state == .paused ? pausedAt : scheduler.now, paused: pausedSeconds)
    }

    /// Quits: the workout ends now, not completed.
    func stop() {
        guard state == .running || state == .paused else { return }
        let time = state == .paused ? pausedAt : scheduler.now
        // The work done in the segment under way counts, as it would had the segment ended.
        if !segmentHasEnded { countWork(until: time) }
        finish(completed: false, at: time)
    }

    /// Publishes an event to every listener, in order, and keeps the message line.
    func emit(_ kind: Event.Kind) {
        if case .segmentStart = kind {
            message = nil
        } else if let (text, messageKind) = SessionMessage.text(of: kind) {
            messageCount += 1
            message = SessionMessage(text: VisibleText.escape(text), kind: messageKind, sequence: messageCount)
        }
        let event = Event(kind, t: scheduler.now - startedAt, fire: currentFire.map {
            Fire(at: $0.at - startedAt, lateMs: $0.lateMs)
        })
        for listener in listeners {
            listener.receive(event)
        }
    }

    /// Runs a timer's work with its fire recorded for the events it causes.
    func firing(_ fire: Fire, _ body: () -> Void) {
        let outer = currentFire
        currentFire = fire
        body()
        currentFire = outer
    }
}
