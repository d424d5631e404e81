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
    public var state: Session.State
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

    /// What an event puts in the message line, if anything. The spoken countdown is left
    /// out: the clock already shows it, and it would wipe the cue being read.
    public static func text(of event: Event.Kind) -> (String, Kind)? {
        switch event {
        case let .cue(_, _, text?): (text, .cue)
        case let .log(text): (text, .log)
        case let .score(score): ("\(score.name): \(score.valueText)", .log)
        case let .error(text, _, _): (text, .error)
        case let .alert(.say, text, _) where !text.allSatisfy(\.isNumber): (text, .cue)
        // A hook's sound file that was not decoded when the routine loaded: why it is silent.
        case let .alert(.sound, text, .unheard?): (text, .warning)
        case let .suspend(_, missed): ("The computer slept for \(TimeText.clock(missed)); paused. Space goes on.", .warning)
        default: nil
        }
    }
}

extension Session {
    /// The workout as it stands now.
    public func snapshot() -> SessionSnapshot {
        // One reading of the clock for every time in it: "time done" and the segment's
        // clock are shown rounded, and two readings a few microseconds apart could round
        // to different seconds.
        let now = self.now
        let started = state != .ready && segment.index > 0
        let elapsed = started ? elapsedInSegment(at: now) : 0
        let remaining = started ? segment.duration - elapsed : 0
        var current: SessionSnapshot.Part?
        var next: SessionSnapshot.Part?
        var done = 0.0
        if started {
            current = .init(segment: SegmentSummary(segment, count: segmentCount), info: info(of: segment))
            done = timeline.segments[segment.index - 1].start + elapsed
            if segment.index < timeline.count {
                let upcoming = timeline.segments[segment.index]
                next = .init(segment: SegmentSummary(upcoming, count: segmentCount), info: info(of: upcoming))
            }
        }
        let running = state == .running && started
        let sinceStart = (phase.pausedSince ?? now) - startedAt
        let deadline = running ? segmentDeadline : nil
        return SessionSnapshot(
            routine: routine.name, state: state, current: current, next: next,
            count: timeline.isComplete ? timeline.count : nil,
            remaining: remaining, elapsedInSegment: elapsed,
            deadline: deadline.map { $0 - startedAt },
            deadlineNanoseconds: deadline.map { scheduler.deadline(for: $0) },
            workoutDone: done,
            workoutLeft: started ? remainingInWorkout(segmentRemaining: segment.open.map { max(0, $0.expect - elapsed) } ?? remaining) : nil,
            elapsed: started ? sinceStart : 0, active: started ? max(0, sinceStart - pausedSeconds) : 0,
            message: message,
            tenths: options.tenths,
            backGrace: options.backGrace,
            nextChange: running ? ShownTime(remaining: remaining, tenths: options.tenths)
                .nextChange(deadline: segmentDeadline - startedAt) : nil,
            open: started ? segment.open : nil,
            tallies: tallies.map { TallyCount(name: $0.name, value: $0.value) }, laps: laps,
            t: now - startedAt, speed: scheduler.speed, sensors: sensors, hrZone: sensorZone)
    }

    /// A segment's `info` as JSON, converted once per segment start for the current
    /// segment and the next: a viewer takes a snapshot on every tick.
    /// The current segment's power for a trainer (`Event.power`), from its `info` as it
    /// stands now (kept, as the snapshot's is).
    func segmentPower() -> SegmentPower {
        SegmentPower(part: .init(segment: SegmentSummary(segment, count: segmentCount), info: info(of: segment)),
                     ftp: options.athlete.ftp, file: routine.fileName)
    }

    private func info(of segment: Segment) -> JSONValue {
        if let cached = infoCache.first(where: { $0.index == segment.index }) { return cached.info }
        let info = routine.infoJSON(for: segment)
        infoCache = Array(infoCache.suffix(1)) + [(segment.index, info)]
        return info
    }
}
