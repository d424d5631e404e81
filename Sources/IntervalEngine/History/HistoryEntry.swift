import Foundation

/// One session in the history: one JSON line in `history.jsonl`, fields in a fixed order.
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

    public init(program: String, file: String, sha256: String, started: Date, ended: Date,
                completed: Bool, elapsed: Double, segmentsDone: Int, segments: Int, workSeconds: Double,
                speed: Double = 1, scores: [Score] = []) {
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
    }

    /// A session of `routine`, started and ended at the given wall-clock times.
    public init(routine: Routine, summary: Summary, started: Date, ended: Date) {
        self.init(program: routine.name, file: routine.filePath ?? routine.fileName,
                  sha256: routine.sha256 ?? "", started: started, ended: ended, completed: summary.completed,
                  elapsed: summary.elapsed, segmentsDone: summary.segmentsDone, segments: summary.segments,
                  workSeconds: summary.workSeconds, speed: summary.speed, scores: summary.scores)
    }

    /// Run faster than real time (a demo, a test): not counted in totals, streaks or
    /// statistics unless asked for.
    public var isSpedUp: Bool { speed != 1 }

    /// Whether the session counts as a day of training: it did some work, or finished.
    public var didTrain: Bool { completed || workSeconds > 0 }

    /// `{"time": 312.5}`, in the order the routine first recorded each name.
    public var scoresJSON: JSONValue {
        .object(scores.map { ($0.name, .number($0.value)) })
    }

    public var json: JSONValue {
        var fields: [(String, JSONValue)] = [
            ("program", .string(program)), ("file", .string(file)), ("sha256", .string(sha256)),
            ("started", .string(Timestamp.local(started))), ("ended", .string(Timestamp.local(ended))),
            ("completed", .bool(completed)), ("elapsed", .number(Number.rounded(elapsed, places: 3))),
            ("segments_done", .integer(segmentsDone)), ("segments", .integer(segments)),
            ("work_seconds", .number(Number.rounded(workSeconds, places: 3))), ("speed", .number(speed)),
            ("scores", scoresJSON),
        ]
        let lower = scores.filter(\.lowerIsBetter)
        if !lower.isEmpty {
            fields.append(("lower_is_better", .array(lower.map { .string($0.name) })))
        }
        return .object(fields)
    }
}

extension HistoryEntry {
    /// The largest `elapsed`, `work_seconds` and segment count a line may hold (over 30
    /// years): beyond them, or below 0, the line is damaged rather than a total gone wrong.
    static let largest = 1e9
    /// What `--speed` accepts.
    static let fastest = 10_000.0

    /// Reads a line back; nil when it is not a whole entry (a damaged line): not JSON, a
    /// field missing or of the wrong type, a date that is not one, or a number out of range.
    public init?(line: UnsafeBufferPointer<UInt8>) {
        guard let object = JSONReader.value(line) else { return nil }
        self.init(json: object)
    }

    public init?(line: String) {
        guard let object = JSONReader.value(line) else { return nil }
        self.init(json: object)
    }

    public init?(json object: JSONValue) {
        guard case .object(let fields) = object else { return nil }
        var values: [String: JSONValue] = [:]
        for (key, value) in fields { values[key] = value }
        func text(_ key: String) -> String? {
            if case .string(let text)? = values[key] { return text }
            return nil
        }
        func amount(_ key: String) -> Double? {
            guard case .number(let value)? = values[key], value >= 0, value <= Self.largest else { return nil }
            return value
        }
        func count(_ key: String) -> Int? {
            guard let value = amount(key), value.rounded() == value else { return nil }
            return Int(value)
        }
        guard let program = text("program"), let file = text("file"), let sha256 = text("sha256"),
              let started = text("started").flatMap(Timestamp.date(from:)),
              let ended = text("ended").flatMap(Timestamp.date(from:)),
              case .bool(let completed)? = values["completed"],
              let elapsed = amount("elapsed"), let segmentsDone = count("segments_done"),
              let segments = count("segments"), let workSeconds = amount("work_seconds")
        else { return nil }
        var speed = 1.0
        if let given = values["speed"] {
            guard case .number(let value) = given, value > 0, value <= Self.fastest else { return nil }
            speed = value
        }
        var lower: Set<String> = []
        if let given = values["lower_is_better"] {
            guard case .array(let names) = given else { return nil }
            for name in names {
                guard case .string(let name) = name else { return nil }
                lower.insert(name)
            }
        }
        var scores: [Score] = []
        if let given = values["scores"] {
            guard case .object(let pairs) = given else { return nil }
            for (name, value) in pairs {
                guard case .number(let number) = value, Score.isValid(number) else { return nil }
                scores.record(Score(name: name, value: number, lowerIsBetter: lower.contains(name)))
            }
        }
        self.init(program: program, file: file, sha256: sha256, started: started, ended: ended,
                  completed: completed, elapsed: elapsed, segmentsDone: segmentsDone, segments: segments,
                  workSeconds: workSeconds, speed: speed, scores: scores)
    }
}
