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

    /// Reads a line back; nil when it is not a whole entry (a damaged line).
    public init?(line: Substring) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let program = object["program"] as? String, let file = object["file"] as? String,
              let sha256 = object["sha256"] as? String,
              let started = object["started"] as? String, Timestamp.date(from: started) != nil,
              let ended = object["ended"] as? String, Timestamp.date(from: ended) != nil,
              let completed = object["completed"] as? Bool,
              let elapsed = (object["elapsed"] as? NSNumber)?.doubleValue,
              let segmentsDone = (object["segments_done"] as? NSNumber)?.intValue,
              let segments = (object["segments"] as? NSNumber)?.intValue,
              let workSeconds = (object["work_seconds"] as? NSNumber)?.doubleValue
        else { return nil }
        self.init(program: program, file: file, sha256: sha256, started: started, ended: ended,
                  completed: completed, elapsed: elapsed, segmentsDone: segmentsDone, segments: segments,
                  workSeconds: workSeconds)
    }
}
