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

    /// The session's message line (already escaped by the session).
    public init(_ message: SessionMessage) {
        text = message.text
        switch message.kind {
        case .cue: kind = .cue
        case .log: kind = .log
        case .warning: kind = .warning
        case .error: kind = .error
        }
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
    /// `run --serve`'s URL and QR code, while the display shows them.
    public var invitation: Invitation?

    public init(routine: String, name: String, kind: String, index: Int, count: Int?, clock: ShownTime,
                duration: Double, countUp: Bool = false, round: Int? = nil, rounds: Int? = nil,
                block: String? = nil, next: Upcoming? = nil, workoutDone: Double, workoutLeft: Double?,
                message: DisplayMessage? = nil, paused: Bool = false, help: Bool = false,
                invitation: Invitation? = nil) {
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
        self.invitation = invitation
    }

    /// The workout as a snapshot shows it, with the display's own clock setting, message
    /// (a newer one of its own, such as a warning, wins over the snapshot's) and help.
    public init(_ snapshot: SessionSnapshot, countUp: Bool, message: DisplayMessage?, help: Bool,
                invitation: Invitation? = nil) {
        let segment = snapshot.current?.segment
        let clock = ShownTime(remaining: snapshot.remaining)
        let next = snapshot.next.map {
            Upcoming(name: $0.segment.name, kind: $0.segment.kind, duration: $0.segment.duration)
        }
        // Everything that moves with time is shown as of the shown clock, so it all
        // changes together: the shown clock is ahead of the real one by this much.
        let ahead = snapshot.remaining - clock.seconds
        self.init(routine: snapshot.routine, name: segment?.name ?? "", kind: segment?.kind ?? "",
                  index: segment?.index ?? 0, count: snapshot.count, clock: clock,
                  duration: segment?.duration ?? 0, countUp: countUp, round: segment?.round,
                  rounds: segment?.rounds, block: segment?.block, next: next,
                  workoutDone: snapshot.workoutDone + ahead,
                  workoutLeft: snapshot.workoutLeft.map { $0 - ahead },
                  message: message, paused: snapshot.paused, help: help, invitation: invitation)
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
