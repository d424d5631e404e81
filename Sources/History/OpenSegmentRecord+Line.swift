import IntervalEngine
import WorkoutValues

extension OpenSegmentRecord {
    /// `{"index": 3, "name": "Squats ×5", "seconds": 41.2, "by": "athlete", "laps": []}`,
    /// and `hr`/`power` as the session's when sensors gave them.
    public var json: JSONValue {
        .object([("index", .integer(index)), ("name", .string(name)), ("seconds", .number(seconds)),
                 ("by", .string(by.rawValue)), ("laps", .array(laps.map { .number($0) }))] + (sensors?.fields ?? []))
    }

    /// Reads one back from a history line; nil when it is damaged.
    public init?(_ reader: inout JSONReader) {
        var index: Double?
        var name: String?
        var seconds: Double?
        var by: SegmentEndCause?
        var laps: [Double] = []
        var sensors = SensorSummary()
        let whole = reader.fields { key, reader in
            switch key {
            case "index":
                guard let value = reader.readNumber(), value >= 1, value <= 1e9, value.rounded() == value else { return false }
                index = value
                return true
            case "name": name = reader.readString(); return name != nil
            case "seconds":
                guard let value = reader.readNumber(), value >= 0, value <= Duration.maximum else { return false }
                seconds = value
                return true
            case "by": by = reader.readString().flatMap(SegmentEndCause.init(rawValue:)); return by != nil
            case "laps":
                laps = []
                return reader.items { reader in
                    guard let value = reader.readNumber(), value >= 0, value <= Duration.maximum,
                          laps.count < 10_000 else { return false }
                    laps.append(value)
                    return true
                }
            default:
                if let quantity = SensorSummary.summed(key) { return sensors.read(quantity, &reader) }
                return reader.skipValue()
            }
        }
        guard whole, let index, let name, let seconds, let by else { return nil }
        self.init(index: Int(index), name: name, seconds: seconds, by: by, laps: laps,
                  sensors: sensors == SensorSummary() ? nil : sensors)
    }
}
