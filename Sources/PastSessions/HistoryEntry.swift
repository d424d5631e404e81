import Foundation
import IntervalEngine
import WorkoutValues

/// One past session: what the history keeps of it (the `History` module writes and reads it
/// as one JSON line of `history.jsonl`) and what a routine's `history` reads back.
public struct HistoryEntry: Equatable, Sendable {
    /// The routine's name (`workout { name = … }`).
    public var program: String
    /// The routine file's absolute path, and its SHA-256 at load time.
    public var file: String
    public var sha256: String
    /// Wall-clock start and end. Held as instants, read once from the line; written as
    /// ISO 8601 text with the local offset of the machine that writes them.
    public var started: Date
    public var ended: Date
    public var completed: Bool
    /// Workout seconds from start to end, pauses included.
    public var elapsed: Double
    public var segmentsDone: Int
    public var segments: Int
    public var workSeconds: Double
    /// Workout seconds per real second; 1 for a line written before speeds were kept.
    public var speed: Double
    /// The routine's `record` calls: the last value per name.
    public var scores: [Score]
    /// How long each open segment really took (a set, a For Time), with its laps.
    public var open: [OpenSegmentRecord]
    /// `elapsed` less the time paused; nil in a line written before it was kept.
    public var active: Double?
    /// The routine's parameters as the session ran with them (defaults, `--set` values and
    /// values its history decided), so that the next session can follow on.
    public var params: [(name: String, value: JSONValue)]
    /// Each timed segment as it was done (bounded: `LapTally`), and the pauses, for an
    /// activity file's laps and timer events; empty in a line written before they were kept.
    public var laps: [SessionLap] = []
    public var pauses: [SessionPause] = []
    /// The file name of the session's samples in the activities folder beside the history
    /// (the `Activity` module's `ActivityFile`), when sensors gave any.
    public var activity: String?
    /// How hard it was, as the athlete said at its end: the rate of perceived exertion,
    /// 1 (very easy) to 10 (all out), and how they felt, 1 (strong) to 5 (weak), on
    /// intervals.icu's scales (`icu_rpe`, `feel`); nil when not asked or not answered.
    public var rpe: Int?
    public var feel: Int?

    /// `name` if it is an activity file name this program writes: letters, digits, `-`, `_` and `.`, not
    /// starting with a dot, ending `.csv`: never a path that leads out of the folder.
    public static func validActivityName(_ name: String) -> String? {
        guard name.count <= 64, name.hasSuffix(".csv"), !name.hasPrefix("."),
              name.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0)) })
        else { return nil }
        return name
    }

    public static func == (lhs: HistoryEntry, rhs: HistoryEntry) -> Bool {
        lhs.program == rhs.program && lhs.file == rhs.file && lhs.sha256 == rhs.sha256 && lhs.started == rhs.started
            && lhs.ended == rhs.ended && lhs.completed == rhs.completed && lhs.elapsed == rhs.elapsed
            && lhs.segmentsDone == rhs.segmentsDone && lhs.segments == rhs.segments && lhs.workSeconds == rhs.workSeconds
            && lhs.speed == rhs.speed && lhs.scores == rhs.scores && lhs.open == rhs.open && lhs.active == rhs.active
            && lhs.laps == rhs.laps && lhs.pauses == rhs.pauses && lhs.activity == rhs.activity
            && lhs.rpe == rhs.rpe && lhs.feel == rhs.feel
            && lhs.participants == rhs.participants
            && lhs.params.count == rhs.params.count
            && zip(lhs.params, rhs.params).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    public init(program: String, file: String, sha256: String, started: Date, ended: Date,
                completed: Bool, elapsed: Double, segmentsDone: Int, segments: Int, workSeconds: Double,
                speed: Double = 1, scores: [Score] = [], open: [OpenSegmentRecord] = [], active: Double? = nil,
                params: [(name: String, value: JSONValue)] = []) {
        self.program = program
        self.file = file
        self.sha256 = sha256
        self.started = started
        self.ended = ended
        self.completed = completed
        self.elapsed = elapsed
        self.segmentsDone = segmentsDone
        self.segments = segments
        self.workSeconds = workSeconds
        self.speed = speed
        self.scores = scores
        self.open = open
        self.active = active
        self.params = params
    }

    /// A session of `routine`, started and ended at the given wall-clock times.
    public init(routine: Routine, summary: Summary, started: Date, ended: Date) {
        self.init(program: routine.name, file: routine.filePath ?? routine.fileName,
                  sha256: routine.sha256 ?? "", started: started, ended: ended, completed: summary.completed,
                  elapsed: summary.elapsed, segmentsDone: summary.segmentsDone, segments: summary.segments,
                  workSeconds: summary.workSeconds, speed: summary.speed, scores: summary.scores, open: summary.open,
                  active: summary.active, params: routine.parameters.map { ($0.name, $0.value.json) })
    }

    /// Heart rate and power from Bluetooth sensors, when the session had any (`hr` and
    /// `power` in the line).
    public var sensors: SensorSummary?
    /// A class's participants (`run --mqtt`), with their averages; empty without one.
    public var participants: [ParticipantSummary] = []

    /// Run faster than real time (a demo, a test): not counted in totals, streaks or
    /// statistics unless asked for.
    public var isSpedUp: Bool { speed != 1 }

    /// Whether the session counts as a day of training: it did some work, or finished.
    public var didTrain: Bool { completed || workSeconds > 0 }

    /// `{"time": 312.5}`, in the order the routine first recorded each name.
    public var scoresJSON: JSONValue {
        .object(scores.map { ($0.name, .number($0.value)) })
    }
}
