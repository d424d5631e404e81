import IntervalEngine
import PastSessions
import WorkoutValues

extension ParticipantSummary {
    /// `{"name":…,"hr_avg":…,"hr_max":…,"power_avg":…}`, in the line's `participants` array.
    public var json: JSONValue {
        .object([
            ("name", .string(Self.bounded(name))),
            ("hr_avg", averageHR.map { .number(Number.rounded($0, places: 1)) } ?? .null),
            ("hr_max", .from(maxHR)),
            ("power_avg", averagePower.map { .number(Number.rounded($0, places: 1)) } ?? .null),
        ])
    }

    /// One entry of the array, or nil when it is not one (the line is then damaged).
    public init?(_ reader: inout JSONReader) {
        var name: String?
        var averageHR: Double?
        var maxHR: Int?
        var averagePower: Double?
        func amount(_ reader: inout JSONReader, _ set: (Double) -> Void) -> Bool {
            if reader.readNull() { return true }
            guard let value = reader.readNumber(), value.isFinite, value >= 0, value <= 100_000 else { return false }
            set(value)
            return true
        }
        let whole = reader.fields { key, reader in
            switch key {
            case "name":
                guard let text = reader.readString(), text.count <= Self.longestName else { return false }
                name = text
                return true
            case "hr_avg": return amount(&reader) { averageHR = $0 }
            case "hr_max": return amount(&reader) { maxHR = $0.rounded() == $0 ? Int($0) : nil }
            case "power_avg": return amount(&reader) { averagePower = $0 }
            default: return reader.skipValue()
            }
        }
        guard whole, let name else { return nil }
        self.init(name: name, averageHR: averageHR, maxHR: maxHR, averagePower: averagePower)
    }
}
