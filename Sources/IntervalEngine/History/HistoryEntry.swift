import Foundation

/// One session in the history: one JSON line in `history.jsonl`, fields in
/// the spec's order.
public struct HistoryEntry: Equatable, Sendable {
    /// The routine's name (`workout { name = … }`).
    public var program: String
    /// The routine file's absolute path, and its SHA-256 at load time.
    public var file: String
    public var sha256: String
    /// Wall-clock start and end, as ISO 8601 text with the local offset.
    public var started: String
    public var ended: String
    public var completed: Bool
    /// Workout seconds from start to end, pauses included.
    public var elapsed: Double
    public var segmentsDone: Int
    public var segments: Int
    public var workSeconds: Double

    public init(program: String, file: String, sha256: String, started: String, ended: String,
                completed: Bool, elapsed: Double, segmentsDone: Int, segments: Int, workSeconds: Double) {
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
    }

    /// A finished session of `routine`, started and ended at the given wall-clock times.
    public init(routine: Routine, summary: Summary, started: Date, ended: Date) {
        self.init(program: routine.name, file: routine.filePath ?? routine.fileName,
                  sha256: routine.sha256 ?? "", started: Timestamp.local(started),
                  ended: Timestamp.local(ended), completed: summary.completed,
                  elapsed: summary.elapsed, segmentsDone: summary.segmentsDone,
                  segments: summary.segments, workSeconds: summary.workSeconds)
    }

    public var json: JSONValue {
        .object([
            ("program", .string(program)), ("file", .string(file)), ("sha256", .string(sha256)),
            ("started", .string(started)), ("ended", .string(ended)), ("completed", .bool(completed)),
            ("elapsed", .number(Number.rounded(elapsed, places: 3))), ("segments_done", .integer(segmentsDone)),
            ("segments", .integer(segments)), ("work_seconds", .number(Number.rounded(workSeconds, places: 3))),
        ])
    }

    /// The largest number of seconds or segments a line may hold (about 31,700 years):
    /// anything beyond is damage, not a session, and would overflow the sums and clocks
    /// of `workout history`.
    public static let maximum: Double = 1e12

    /// Reads a line back; nil when it is not a whole entry (a damaged line): a field
    /// missing or of the wrong type, a time that is not a date, a number that is negative,
    /// not finite, above `maximum`, or a count that is not whole.
    public init?(line: Substring) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let program = object["program"] as? String, let file = object["file"] as? String,
              let sha256 = object["sha256"] as? String,
              let started = object["started"] as? String, Timestamp.date(from: started) != nil,
              let ended = object["ended"] as? String, Timestamp.date(from: ended) != nil,
              let completed = object["completed"] as? Bool,
              let elapsed = Self.amount(object["elapsed"]),
              let segmentsDone = Self.amount(object["segments_done"], whole: true),
              let segments = Self.amount(object["segments"], whole: true),
              let workSeconds = Self.amount(object["work_seconds"])
        else { return nil }
        self.init(program: program, file: file, sha256: sha256, started: started, ended: ended,
                  completed: completed, elapsed: elapsed, segmentsDone: Int(segmentsDone), segments: Int(segments),
                  workSeconds: workSeconds)
    }

    /// A number field within 0...`maximum` (and whole, for counts); nil otherwise.
    private static func amount(_ field: Any?, whole: Bool = false) -> Double? {
        // JSON's true comes back as a number too, of ObjC type "c".
        guard let number = field as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
        let value = number.doubleValue
        guard value.isFinite, value >= 0, value <= maximum, !whole || value.rounded() == value else { return nil }
        return value
    }
}
