import IntervalEngine
import PastSessions
import WorkoutValues

extension SessionLap {
    /// `{"index": 2, "name": "Work", "kind": "work", "start": 300, "elapsed": 30, "timer": 30}`.
    public var json: JSONValue {
        .object([("index", .integer(index)), ("name", .string(name)), ("kind", .string(kind)),
                 ("start", .number(Number.rounded(start, places: 3))),
                 ("elapsed", .number(Number.rounded(elapsed, places: 3))),
                 ("timer", .number(Number.rounded(timer, places: 3)))])
    }

    /// Reads one back from a history line; nil when it is damaged.
    public init?(_ reader: inout JSONReader) {
        var index, start, elapsed, timer: Double?
        var name, kind: String?
        func amount(_ reader: inout JSONReader) -> Double? {
            guard let value = reader.readNumber(), value >= 0, value <= HistoryEntry.largest else { return nil }
            return value
        }
        let whole = reader.fields { key, reader in
            switch key {
            case "index":
                index = amount(&reader)
                return index.map { $0 >= 1 && $0.rounded() == $0 } ?? false
            case "name": name = reader.readString(); return name != nil
            case "kind": kind = reader.readString(); return kind != nil
            case "start": start = amount(&reader); return start != nil
            case "elapsed": elapsed = amount(&reader); return elapsed != nil
            case "timer": timer = amount(&reader); return timer != nil
            default: return reader.skipValue()
            }
        }
        guard whole, let index, let name, let kind, let start, let elapsed, let timer, timer <= elapsed + 0.001 else {
            return nil
        }
        self.init(index: Int(index), name: name, kind: kind, start: start, elapsed: elapsed, timer: timer)
    }
}

extension SessionPause {
    /// `[at, seconds]`.
    public var json: JSONValue {
        .array([.number(Number.rounded(at, places: 3)), .number(Number.rounded(seconds, places: 3))])
    }

    public init?(_ reader: inout JSONReader) {
        var values: [Double] = []
        let whole = reader.items { reader in
            guard values.count < 2, let value = reader.readNumber(), value >= 0, value <= HistoryEntry.largest else {
                return false
            }
            values.append(value)
            return true
        }
        guard whole, values.count == 2 else { return nil }
        self.init(at: values[0], seconds: values[1])
    }
}
