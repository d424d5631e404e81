import WorkoutValues

/// Anything that follows a running workout: the JSON and plain printers, the live
/// display, the history recorder, the alert player, a web page's feed. The session
/// publishes to each listener in the order they subscribed, on the session's thread
/// (the main run loop, or the caller of a virtual clock). A listener with slow work
/// (a child process, a network write, audio) hands it to a queue of its own and
/// returns at once: it runs on the timer's path.
public protocol SessionListener: AnyObject {
    /// Every event, once, in order.
    func receive(_ event: Event)
    /// A moment that the session has scheduled: heard before it comes, so a player can
    /// start a sound early enough to land on it.
    func planned(_ moment: PlannedMoment)
    /// A moment heard of before that will no longer come when planned (a pause, skip,
    /// back, extend or sleep moved it). If it still comes, it is planned anew.
    func withdrawn(_ moment: PlannedMoment)
}

extension SessionListener {
    public func planned(_ moment: PlannedMoment) {}
    public func withdrawn(_ moment: PlannedMoment) {}
}

/// A listener made of a closure, for tests and for small wiring.
public final class EventClosure: SessionListener {
    private let body: (Event) -> Void

    public init(_ body: @escaping (Event) -> Void) {
        self.body = body
    }

    public func receive(_ event: Event) { body(event) }
}

/// Something the session will do at a planned time, unless a command or a sleep moves
/// it first: each one is one of the current segment's timers.
public struct PlannedMoment: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The current segment ends. `next` is the segment that follows, when it is known;
        /// `last` is true when nothing follows (the workout finishes).
        case boundary(next: SegmentSummary?, last: Bool)
        /// One of the last `countdown` seconds: `second` left.
        case countdown(second: Int)
        /// A cue of the segment, `offset` seconds from its start; text cues carry it.
        case cue(offset: Double, text: String?)
        /// With voice on, "Next: …" said ahead of the countdown.
        case announcement(text: String)
    }

    /// Tells moments apart, so a withdrawal names the one it takes back.
    public var id: UInt64
    public var kind: Kind
    /// The segment it belongs to.
    public var index: Int
    /// When, in workout seconds since the start (as events' `t`).
    public var at: Double
    /// When, in nanoseconds of CLOCK_MONOTONIC (virtual nanoseconds on a virtual clock).
    public var deadline: UInt64
    /// The alerts it will make, as the one alert policy decided when the moment was
    /// planned (nil: not known yet, as for an open-ended workout's next segment). The
    /// session gives exactly these when the moment comes, their events naming this
    /// moment's id, so a player may write its sound and words ahead to land on `deadline`.
    public var alerts: [AlertPolicy.Alert]?

    public init(id: UInt64, kind: Kind, index: Int, at: Double, deadline: UInt64, alerts: [AlertPolicy.Alert]? = nil) {
        self.id = id
        self.kind = kind
        self.index = index
        self.at = at
        self.deadline = deadline
        self.alerts = alerts
    }

    /// The sound it will make, if any.
    public var sound: Sound? { alerts?.lazy.compactMap(\.sound).first }

    /// The words it will say, if any.
    public var words: String? { alerts?.lazy.compactMap(\.words).first }
}
