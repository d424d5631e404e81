import WorkoutValues

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
        /// Its payload in words (`InfoText`).
        public var info: String?
        /// It is open: `duration` is only what it is expected to take.
        public var open: Bool

        public init(name: String, kind: String, duration: Double, info: String? = nil, open: Bool = false) {
            self.name = name
            self.kind = kind
            self.duration = duration
            self.info = info
            self.open = open
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
    /// The segment's payload in words (`InfoText`), in an area of its own.
    public var info: String?
    public var next: Upcoming?
    /// Planned workout seconds done and to go, as of the shown clock: the workout bar.
    public var workoutDone: Double
    /// Nil while an open-ended workout has segments still to come.
    public var workoutLeft: Double?
    /// Seconds since the start, pauses included, and the same less the pauses, as of the
    /// shown clock: the time done, in the summary's words.
    public var elapsed: Double
    public var active: Double
    public var message: DisplayMessage?
    public var paused: Bool
    public var help: Bool
    /// `run --serve`'s URL and QR code, while the display shows them.
    public var invitation: Invitation?
    /// The segment is open: it ends when the athlete presses Enter, so its clock counts up
    /// and the key line offers `Enter done`.
    public var open = false
    /// An open segment's cap in seconds: the segment bar fills toward it. Nil without one.
    public var cap: Double?
    /// A distance step's metres, and those covered so far (nil before a source said):
    /// the bar fills toward the distance instead.
    public var distance: DistanceStep?

    /// A distance step as the bar shows it.
    public struct DistanceStep: Equatable, Sendable {
        public var metres: Double
        public var covered: Double?
    }
    /// The tallies counted so far (`r`), shown beside the clock.
    public var tallies: [TallyCount] = []
    /// Seconds within which `b` goes to the segment before (the help screen says so).
    public var backGrace: Double
    /// A wide band of the kind's colour behind the digits (off with `--calm` and without colour).
    public var band: Bool
    /// The visual bell is showing: the band's cells are inverted.
    public var flash: Bool
    /// Bluetooth sensors' values, when the run has any.
    public var sensors: SensorLine?
    /// A class's participants (`run --mqtt`): a row of their own above the message.
    public var participants: ClassBand?

    public init(routine: String, name: String, kind: String, index: Int, count: Int?, clock: ShownTime,
                duration: Double, countUp: Bool = false, round: Int? = nil, rounds: Int? = nil,
                block: String? = nil, info: String? = nil, next: Upcoming? = nil, workoutDone: Double,
                workoutLeft: Double?, elapsed: Double? = nil, active: Double? = nil,
                message: DisplayMessage? = nil, paused: Bool = false, help: Bool = false,
                band: Bool = false, flash: Bool = false, invitation: Invitation? = nil,
                backGrace: Double = SessionCommand.standardBackGrace) {
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
        self.info = info
        self.next = next
        self.workoutDone = workoutDone
        self.workoutLeft = workoutLeft
        self.elapsed = elapsed ?? workoutDone
        self.active = active ?? elapsed ?? workoutDone
        self.message = message
        self.paused = paused
        self.help = help
        self.band = band
        self.flash = flash
        self.invitation = invitation
        self.backGrace = backGrace
    }

    /// The workout as a snapshot shows it, with the display's own settings (clock, band),
    /// message (a newer one of its own, such as a warning, wins over the snapshot's),
    /// help, flash and `run --serve`'s invitation.
    public init(_ snapshot: SessionSnapshot, countUp: Bool, message: DisplayMessage?, help: Bool,
                band: Bool = false, flash: Bool = false, invitation: Invitation? = nil) {
        let current = snapshot.current
        let segment = current?.segment
        let clock = ShownTime(remaining: snapshot.remaining, tenths: snapshot.tenths)
        let next = snapshot.next.map {
            Upcoming(name: $0.segment.name, kind: $0.segment.kind, duration: $0.segment.duration,
                     info: InfoText.summary($0.info), open: $0.segment.open != nil)
        }
        // Everything that moves with time is shown as of the shown clock, so it all
        // changes together: the shown clock is ahead of the real one by this much.
        let ahead = snapshot.remaining - clock.seconds
        self.init(routine: snapshot.routine, name: segment?.name ?? "", kind: segment?.kind ?? "",
                  index: segment?.index ?? 0, count: snapshot.count, clock: clock,
                  duration: snapshot.open != nil ? snapshot.remaining + snapshot.elapsedInSegment : segment?.duration ?? 0,
                  countUp: countUp, round: segment?.round,
                  rounds: segment?.rounds, block: segment?.block,
                  info: current.flatMap { InfoText.summary($0.info) }, next: next,
                  workoutDone: snapshot.workoutDone + ahead,
                  workoutLeft: snapshot.workoutLeft.map { $0 - ahead },
                  elapsed: max(0, snapshot.elapsed + ahead), active: max(0, snapshot.active + ahead),
                  message: message, paused: snapshot.paused, help: help, band: band, flash: flash,
                  invitation: invitation, backGrace: snapshot.backGrace)
        open = snapshot.open != nil
        cap = snapshot.open?.cap
        distance = snapshot.open?.distance.map { DistanceStep(metres: $0, covered: snapshot.covered) }
        // An open segment's clock counts up: there is no end to count down to.
        if open { self.countUp = true }
        tallies = snapshot.tallies
        if !snapshot.sensors.isEmpty { sensors = SensorLine(readings: snapshot.sensors, zone: snapshot.hrZone) }
    }

    /// The clock's text: remaining, or done with `--count-up`.
    public var clockText: String { countUp ? clock.elapsedText(duration: duration) : clock.remainingText }

    /// How far through the segment, 0...1, as of the shown clock.
    public var segmentProgress: Double {
        duration > 0 ? min(1, max(0, 1 - clock.seconds / duration)) : 1
    }

    /// `15:40`, or `15:40 (0:25 paused)`: the words of the summary left at the end.
    public var elapsedText: String { SummaryText.elapsed(elapsed, active: active) }

    public var workoutProgress: Double {
        guard let workoutLeft else { return 0 }
        let total = workoutDone + workoutLeft
        return total > 0 ? min(1, max(0, workoutDone / total)) : 1
    }
}
