import Foundation
import IntervalEngine
import IntervalEngine
import PastSessions
import WorkoutValues

extension HistoryEntry {
    /// The session as its line in `history.jsonl`: fields in a fixed order.
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
        if !open.isEmpty {
            fields.append(("open", .array(open.map(\.json))))
        }
        if let active {
            fields.append(("active", .number(Number.rounded(active, places: 3))))
        }
        if !params.isEmpty {
            fields.append(("params", .object(params.map { ($0.name, $0.value) })))
        }
        if let sensors { fields += sensors.fields }
        if !laps.isEmpty {
            fields.append(("laps", .array(laps.map(\.json))))
        }
        if !pauses.isEmpty {
            fields.append(("pauses", .array(pauses.map(\.json))))
        }
        if let activity {
            fields.append(("activity", .string(activity)))
        }
        if let rpe { fields.append(("rpe", .integer(rpe))) }
        if let feel { fields.append(("feel", .integer(feel))) }
        if !participants.isEmpty {
            fields.append(("participants", .array(participants.prefix(ParticipantSummary.most).map(\.json))))
        }
        return .object(fields)
    }
}

extension HistoryEntry {
    /// The largest `elapsed`, `work_seconds` and segment count a line may hold (over 30
    /// years): beyond them, or below 0, the line is damaged rather than a total gone wrong.
    public static let largest = 1e9
    /// What `--speed` accepts.
    static let fastest = 10_000.0
    /// The whole numbers a rating may be.
    public static let rpes: Set<Double> = Set((1...10).map(Double.init))
    public static let feels: Set<Double> = Set((1...5).map(Double.init))

    /// Reads a line back; nil when it is not a whole entry (a damaged line): not JSON, a
    /// field missing or of the wrong type, a date that is not one, or a number out of range.
    /// Fields it does not know are skipped; of a field given twice, the last counts.
    public init?(line: UnsafeBufferPointer<UInt8>) {
        var program, file, sha256: String?
        var started, ended: Date?
        var completed: Bool?
        var elapsed, segmentsDone, segments, workSeconds: Double?
        var speed = 1.0
        var scores: [Score] = []
        var lower: Set<String> = []
        var open: [OpenSegmentRecord] = []
        var active: Double?
        var params: [(name: String, value: JSONValue)] = []
        var laps: [SessionLap] = []
        var pauses: [SessionPause] = []
        var activity: String?
        var rpe, feel: Int?
        var sensors = SensorSummary()
        var participants: [ParticipantSummary] = []
        func amount(_ reader: inout JSONReader) -> Double? {
            guard let value = reader.readNumber(), value >= 0, value <= Self.largest else { return nil }
            return value
        }
        func count(_ reader: inout JSONReader) -> Double? {
            guard let value = amount(&reader), value.rounded() == value else { return nil }
            return value
        }
        var reader = JSONReader(line)
        let whole = reader.fields { key, reader in
            switch key {
            case "program": program = reader.readString(); return program != nil
            case "file": file = reader.readString(); return file != nil
            case "sha256": sha256 = reader.readString(); return sha256 != nil
            case "started": started = reader.readString().flatMap(Timestamp.date(from:)); return started != nil
            case "ended": ended = reader.readString().flatMap(Timestamp.date(from:)); return ended != nil
            case "completed": completed = reader.readBool(); return completed != nil
            case "elapsed": elapsed = amount(&reader); return elapsed != nil
            case "segments_done": segmentsDone = count(&reader); return segmentsDone != nil
            case "segments": segments = count(&reader); return segments != nil
            case "work_seconds": workSeconds = amount(&reader); return workSeconds != nil
            case "speed":
                guard let value = reader.readNumber(), value > 0, value <= Self.fastest else { return false }
                speed = value
                return true
            case "scores":
                scores = []
                return reader.fields { name, reader in
                    guard let value = reader.readNumber(), Score.isValid(value) else { return false }
                    scores.record(Score(name: name, value: value))
                    return true
                }
            case "open":
                open = []
                return reader.items { reader in
                    guard let record = OpenSegmentRecord(&reader), open.count < Int(Self.largest) else { return false }
                    open.append(record)
                    return true
                }
            case "active": active = amount(&reader); return active != nil
            case "params":
                params = []
                return reader.fields { name, reader in
                    guard params.count < 1_000, let value = Self.parameterValue(&reader) else { return false }
                    params.append((name, value))
                    return true
                }
            case "laps":
                laps = []
                return reader.items { reader in
                    guard laps.count < LapTally.mostLaps, let lap = SessionLap(&reader) else { return false }
                    laps.append(lap)
                    return true
                }
            case "pauses":
                pauses = []
                return reader.items { reader in
                    guard pauses.count < LapTally.mostPauses, let pause = SessionPause(&reader) else { return false }
                    pauses.append(pause)
                    return true
                }
            case "activity":
                // A name that could lead out of the activities folder is not followed.
                guard let name = reader.readString() else { return false }
                activity = Self.validActivityName(name)
                return true
            case "rpe":
                guard let value = reader.readNumber(), Self.rpes.contains(value) else { return false }
                rpe = Int(value)
                return true
            case "feel":
                guard let value = reader.readNumber(), Self.feels.contains(value) else { return false }
                feel = Int(value)
                return true
            case "participants":
                return reader.items { reader in
                    guard participants.count < ParticipantSummary.most, let one = ParticipantSummary(&reader) else {
                        return false
                    }
                    participants.append(one)
                    return true
                }
            case "lower_is_better":
                lower = []
                return reader.items { reader in
                    guard let name = reader.readString() else { return false }
                    lower.insert(name)
                    return true
                }
            default:
                if let quantity = SensorSummary.summed(key) { return sensors.read(quantity, &reader) }
                return reader.skipValue()
            }
        }
        guard whole, reader.atEnd(), let program, let file, let sha256, let started, let ended, let completed,
              let elapsed, let segmentsDone, let segments, let workSeconds else { return nil }
        for position in scores.indices where lower.contains(scores[position].name) {
            scores[position].lowerIsBetter = true
        }
        self.init(program: program, file: file, sha256: sha256, started: started, ended: ended,
                  completed: completed, elapsed: elapsed, segmentsDone: Int(segmentsDone), segments: Int(segments),
                  workSeconds: workSeconds, speed: speed, scores: scores, open: open, active: active, params: params)
        self.laps = laps
        self.pauses = pauses
        self.activity = activity
        self.rpe = rpe
        self.feel = feel
        self.sensors = sensors == SensorSummary() ? nil : sensors
        self.participants = participants
    }

    /// A parameter's value in a line: a number, text or a boolean.
    private static func parameterValue(_ reader: inout JSONReader) -> JSONValue? {
        if let text = reader.readString() { return .string(text) }
        if let flag = reader.readBool() { return .bool(flag) }
        guard let number = reader.readNumber(), number.isFinite else { return nil }
        // A whole number is an integer to the routine that reads it back (`week = 3`).
        if number.rounded() == number, abs(number) < 1e15 { return .integer(Int(number)) }
        return .number(number)
    }

    public init?(line: String) {
        var line = line
        guard let entry = line.withUTF8({ HistoryEntry(line: $0) }) else { return nil }
        self = entry
    }
}
