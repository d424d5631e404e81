/// What a step asks for — power, heart rate, pace, cadence — kept in a segment's `info`
/// under these names, so a routine's hooks can read them and `workout export` can find
/// them again:
///
/// | key | value |
/// |---|---|
/// | `power` | percent of FTP: `105`, or `{ low = 95, high = 105 }` |
/// | `watts` | watts: `250` or `{ low = 200, high = 240 }` |
/// | `zone`, `hr_zone`, `pace_zone` | `"Z2"`, `"Z2-Z3"` (power, heart-rate and pace zones) |
/// | `hr`, `lthr` | percent of maximum / threshold heart rate |
/// | `bpm` | heart rate in beats per minute: `145` or `{ low = 140, high = 150 }` |
/// | `pace` | percent of threshold pace, or a pace such as `"5:00/km"` |
/// | `mmp` | a percent of a mean maximal power, as intervals.icu writes it: `"60% MMP 5m"` (60 % of your best 5-minute power); text, since workout knows no MMP curve |
/// | `cadence` | rpm: `90` or `{ low = 85, high = 95 }` |
/// | `incline` | a treadmill's incline, percent: `2` or `{ low = 1, high = 3 }` |
/// | `ramp` | `true`: `low` → `high` is a ramp from one to the other, not a range |
/// | `freeride` | `true`: no target (Zwift's free ride, ERG off) |
/// | `max_effort` | `true`: all out (Zwift's MaxEffort) |
public struct Targets: Hashable {
    public enum Key: String, CaseIterable, Sendable {
        case power, watts, hr, lthr, bpm, pace, ramp, zone
        case hrZone = "hr_zone"
        case paceZone = "pace_zone"
        case mmp, cadence, incline, freeride
        case maxEffort = "max_effort"

        /// The keys whose value may be text.
        public var takesText: Bool { [.zone, .hrZone, .paceZone, .pace, .mmp].contains(self) }
        /// The keys that are only ever `true`.
        public var isFlag: Bool { [.ramp, .freeride, .maxEffort].contains(self) }
    }

    public enum Value: Hashable {
        case number(Double)
        case range(low: Double, high: Double)
        case text(String)
        case flag
    }

    public private(set) var values: [Key: Value] = [:]

    public init(_ values: [Key: Value] = [:]) {
        self.values = values
    }

    public subscript(key: Key) -> Value? {
        get { values[key] }
        set { values[key] = newValue }
    }

    public var isEmpty: Bool { values.isEmpty }

    /// In the order of `Key`, so that files and tables always list them the same way.
    public var ordered: [(key: Key, value: Value)] {
        Key.allCases.compactMap { key in values[key].map { (key, $0) } }
    }

    public func has(_ key: Key) -> Bool { values[key] != nil }

    /// A number, or the two ends of a range (the same number twice).
    public func bounds(_ key: Key) -> (low: Double, high: Double)? {
        switch values[key] {
        case .number(let value)?: (value, value)
        case let .range(low, high)?: (low, high)
        default: nil
        }
    }
}

extension Targets {
    /// The targets in a segment's `info` as `workout export` finds it; `ignored` gets the
    /// keys that are not targets, or whose value is not of a target's shape.
    public init(info: JSONValue, ignored: inout Set<String>) {
        guard case .object(let fields) = info else { return }
        for (name, value) in fields {
            guard let key = Key(rawValue: name), let read = Targets.value(value, for: key) else {
                ignored.insert(name)
                continue
            }
            values[key] = read
        }
    }

    private static func value(_ json: JSONValue, for key: Key) -> Value? {
        if key.isFlag {
            if case .bool(true) = json { return .flag }
            return nil
        }
        switch json {
        case .integer(let value): return .number(Double(value))
        case .number(let value) where value.isFinite: return .number(value)
        case .string(let text) where key.takesText: return .text(text)
        case .object:
            guard let low = number(json["low"]), let high = number(json["high"]),
                  case .object(let fields) = json, fields.count == 2 else { return nil }
            return .range(low: low, high: high)
        default: return nil
        }
    }

    private static func number(_ json: JSONValue?) -> Double? {
        switch json {
        case .integer(let value)?: Double(value)
        case .number(let value)? where value.isFinite: value
        default: nil
        }
    }
}
