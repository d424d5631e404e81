/// Everything a viewer shows of a running workout at one moment, as plain values: the
/// live display builds its screen from it, and a web page gets it as JSON. Times are
/// workout seconds unless named otherwise.
public struct SessionSnapshot: Sendable, Equatable {
    /// A segment with its payload, as a viewer shows it.
    public struct Part: Sendable, Equatable {
        public var segment: SegmentSummary
        /// The segment's `info` table as JSON (`null` when it has none).
        public var info: JSONValue

        public init(segment: SegmentSummary, info: JSONValue) {
            self.segment = segment
            self.info = info
        }
    }

    public var routine: String
    public var state: SessionState
    /// The current segment; nil before the first one starts.
    public var current: Part?
    /// The segment after it, when it is known.
    public var next: Part?
    /// How many segments the workout has, once that is known (an open-ended workout's
    /// once its generators have ended; events keep `null` for it throughout).
    public var count: Int?
    /// Seconds left in the current segment, and done of it (pauses not counted).
    public var remaining: Double
    public var elapsedInSegment: Double
    /// When the current segment ends, while running: in workout seconds and in
    /// nanoseconds of CLOCK_MONOTONIC. Nil while paused or finished.
    public var deadline: Double?
    public var deadlineNanoseconds: UInt64?
    /// Where the workout is in its plan: planned seconds done (the current segment's
    /// planned start plus what is done of it) and left (nil while an open-ended workout
    /// has segments still to come).
    public var workoutDone: Double
    public var workoutLeft: Double?
    /// Workout seconds since the start, pauses included, and the same less the time
    /// paused: as the summary counts them (`Summary.elapsed`, `.active`), so a viewer's
    /// "time done" agrees with the summary. While paused both stand at the pause's start,
    /// as they would if the workout were quit then.
    public var elapsed: Double
    public var active: Double
    /// The latest cue, `print`, spoken text, warning or error; a new segment clears it.
    public var message: SessionMessage?
    /// Whether the shown clock has tenths in a segment's last 3 s (`--tenths`).
    public var tenths: Bool
    /// Seconds into a segment within which `back` goes to the segment before (the help
    /// screen says so).
    public var backGrace: Double
    /// When the shown segment clock (`ShownTime`) next changes, while running; nil when
    /// the next change is the segment's end. A viewer wakes `nextChange - t` from when it
    /// took the snapshot.
    public var nextChange: Double?
    /// Set while the current segment is open (it ends when the athlete marks it done):
    /// a viewer counts its clock up from `elapsedInSegment`, shows the cap if any, and
    /// offers DONE. `remaining` and `deadline` then count to the cap (or a day).
    public var open: OpenEnd?
    /// In a distance step (`open.distance`): the metres covered so far, once a treadmill,
    /// rower or foot pod has said.
    public var covered: Double?
    /// The tallies counted so far (`r`, the page's +1), in the order first counted.
    public var tallies: [TallyCount]
    /// The current segment's lap splits, in seconds.
    public var laps: [Double]
    /// Workout seconds since the start, when the snapshot was taken.
    public var t: Double
    public var speed: Double
    /// Bluetooth sensors' latest values (stale ones marked), and the heart rate's zone.
    public var sensors = SensorReadings()
    public var hrZone: Int?

    public init(
        routine: String,
        state: SessionState,
        current: Part? = nil,
        next: Part? = nil,
        count: Int? = nil,
        remaining: Double,
        elapsedInSegment: Double,
        deadline: Double? = nil,
        deadlineNanoseconds: UInt64? = nil,
        workoutDone: Double,
        workoutLeft: Double? = nil,
        elapsed: Double,
        active: Double,
        message: SessionMessage? = nil,
        tenths: Bool,
        backGrace: Double,
        nextChange: Double? = nil,
        open: OpenEnd? = nil,
        tallies: [TallyCount],
        laps: [Double],
        t: Double,
        speed: Double,
        sensors: SensorReadings = SensorReadings(),
        hrZone: Int? = nil
    ) {
        self.routine = routine
        self.state = state
        self.current = current
        self.next = next
        self.count = count
        self.remaining = remaining
        self.elapsedInSegment = elapsedInSegment
        self.deadline = deadline
        self.deadlineNanoseconds = deadlineNanoseconds
        self.workoutDone = workoutDone
        self.workoutLeft = workoutLeft
        self.elapsed = elapsed
        self.active = active
        self.message = message
        self.tenths = tenths
        self.backGrace = backGrace
        self.nextChange = nextChange
        self.open = open
        self.tallies = tallies
        self.laps = laps
        self.t = t
        self.speed = speed
        self.sensors = sensors
        self.hrZone = hrZone
    }

    public var paused: Bool { state == .paused }
}

/// A line a viewer keeps in view until the next one.
/// A tally's name and what it has counted.
public struct TallyCount: Sendable, Equatable {
    public var name: String
    public var value: Int

    public init(name: String, value: Int) {
        self.name = name
        self.value = value
    }
}

public struct SessionMessage: Sendable, Equatable {
    public enum Kind: String, Sendable { case cue, log, warning, error }

    public var text: String
    public var kind: Kind
    /// Counts messages: a viewer that shows a warning of its own keeps it until a newer
    /// message comes.
    public var sequence: Int

    public init(text: String, kind: Kind, sequence: Int) {
        self.text = text
        self.kind = kind
        self.sequence = sequence
    }
}
