import IntervalEngine

/// A line the display keeps on screen until the next one: a cue, a `print` from the
/// routine, a warning or an error.
public struct DisplayMessage: Equatable, Sendable {
    public enum Kind: Sendable { case cue, log, warning, error }

    public var text: String
    public var kind: Kind

    /// Control characters in the text are shown escaped: a routine's `print` must not
    /// be able to drive the terminal.
    public init(_ text: String, _ kind: Kind) {
        self.text = VisibleText.escape(text)
        self.kind = kind
    }
}

/// Everything the full-screen display shows at one moment, as plain values: the view
/// model between a running session and the layout, so the layout is tested without a
/// terminal and without a clock.
public struct DisplayState: Equatable, Sendable {
    public struct Upcoming: Equatable, Sendable {
        public var name: String
        public var kind: String
        public var duration: Double

        public init(name: String, kind: String, duration: Double) {
            self.name = name
            self.kind = kind
            self.duration = duration
        }
    }

    public var routine: String
    public var name: String
    public var kind: String
    public var index: Int
    /// Nil while an open-ended workout has segments still to come: `3/…`.
    public var count: Int?
    public var clock: ShownTime
    public var duration: Double
    public var countUp: Bool
    public var round: Int?
    public var rounds: Int?
    public var block: String?
    public var next: Upcoming?
    /// Workout seconds done and to go, as of the shown clock.
    public var workoutDone: Double
    /// Nil while an open-ended workout has segments still to come.
    public var workoutLeft: Double?
    public var message: DisplayMessage?
    public var paused: Bool
    public var help: Bool

    public init(routine: String, name: String, kind: String, index: Int, count: Int?, clock: ShownTime,
                duration: Double, countUp: Bool = false, round: Int? = nil, rounds: Int? = nil,
                block: String? = nil, next: Upcoming? = nil, workoutDone: Double, workoutLeft: Double?,
                message: DisplayMessage? = nil, paused: Bool = false, help: Bool = false) {
        self.routine = routine
        self.name = name
        self.kind = kind
        self.index = index
        self.count = count
        self.clock = clock
        self.duration = duration
        self.countUp = countUp
        self.round = round
        self.rounds = rounds
        self.block = block
        self.next = next
        self.workoutDone = workoutDone
        self.workoutLeft = workoutLeft
        self.message = message
        self.paused = paused
        self.help = help
    }

    /// The session as it stands now.
    public init(session: Session, countUp: Bool, message: DisplayMessage?, help: Bool) {
        let segment = session.segment
        let timeline = session.routine.timeline
        let planned = timeline.segments[segment.index - 1]
        let clock = ShownTime(remaining: session.remainingInSegment)
        let shownDone = max(0, segment.duration - clock.seconds)
        var next: Upcoming?
        if segment.index < timeline.count {
            let upcoming = timeline.segments[segment.index]
            next = Upcoming(name: upcoming.name, kind: upcoming.kind, duration: upcoming.duration)
        }
        // An open-ended workout's count and time left are known once its generators end;
        // until then "next" is only shown for a segment already known.
        let complete = timeline.isComplete
        self.init(routine: session.routine.name, name: segment.name, kind: segment.kind, index: segment.index,
                  count: complete ? timeline.count : nil, clock: clock, duration: segment.duration, countUp: countUp,
                  round: segment.round, rounds: segment.rounds, block: segment.block, next: next,
                  workoutDone: planned.start + shownDone,
                  workoutLeft: complete ? clock.seconds + timeline.duration - planned.end : nil,
                  message: message, paused: session.state == .paused, help: help)
    }

    /// The clock's text: remaining, or done with `--count-up`.
    public var clockText: String { countUp ? clock.elapsedText(duration: duration) : clock.remainingText }

    /// How far through the segment, 0...1, as of the shown clock.
    public var segmentProgress: Double {
        duration > 0 ? min(1, max(0, 1 - clock.seconds / duration)) : 1
    }

    public var workoutProgress: Double {
        guard let workoutLeft else { return 0 }
        let total = workoutDone + workoutLeft
        return total > 0 ? min(1, max(0, workoutDone / total)) : 1
    }
}

extension Session {
    /// When what the display shows next changes, in workout time; nil while nothing
    /// moves (paused, finished) or when the segment's end timer will redraw anyway.
    public var nextDisplayChange: Double? {
        guard state == .running else { return nil }
        return ShownTime(remaining: remainingInSegment).nextChange(deadline: segmentDeadline)
    }
}
