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
        self.init(bytes: Array(line.utf8))
    }

    /// The same from the line's bytes, as the file holds them: the flat lines the writer
    /// writes through `FlatJSON`, anything else through `JSONSerialization`.
    public init?(bytes: [UInt8]) {
        if let fields = bytes.withUnsafeBufferPointer(FlatJSON.object) {
            self.init(fields: { FlatJSON.field($0, in: fields) })
        } else {
            guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else { return nil }
            self.init(fields: { key in
                switch object[key] {
                case let text as String: return .string(text)
                // JSON's true comes back as a number too, of ObjC type "c".
                case let number as NSNumber where String(cString: number.objCType) == "c": return .bool(number.boolValue)
                case let number as NSNumber: return .number(number.doubleValue)
                case .none: return nil
                default: return .null
                }
            })
        }
    }

    private init?(fields: (String) -> FlatJSON.Value?) {
        func text(_ key: String) -> String? {
            if case let .string(value)? = fields(key) { return value }
            return nil
        }
        guard let program = text("program"), let file = text("file"), let sha256 = text("sha256"),
              let started = text("started"), Timestamp.date(from: started) != nil,
              let ended = text("ended"), Timestamp.date(from: ended) != nil,
              case let .bool(completed)? = fields("completed"),
              let elapsed = Self.amount(fields("elapsed")),
              let segmentsDone = Self.amount(fields("segments_done"), whole: true),
              let segments = Self.amount(fields("segments"), whole: true),
              let workSeconds = Self.amount(fields("work_seconds"))
        else { return nil }
        self.init(program: program, file: file, sha256: sha256, started: started, ended: ended,
                  completed: completed, elapsed: elapsed, segmentsDone: Int(segmentsDone), segments: Int(segments),
                  workSeconds: workSeconds)
    }

    /// A number field within 0...`maximum` (and whole, for counts); nil otherwise.
    private static func amount(_ field: FlatJSON.Value?, whole: Bool = false) -> Double? {
        guard case let .number(value)? = field, value.isFinite, value >= 0, value <= maximum,
              !whole || value.rounded() == value else { return nil }
        return value
    }
}
