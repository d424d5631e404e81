import IntervalEngine

extension SensorSummary {
    /// The fields a history line (or an open segment's record in it) carries: only values
    /// the reader takes back (`readable`), so that whatever is written is read.
    public var fields: [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = []
        if let maxHR, Self.readable(Double(maxHR)) {
            fields.append(("hr", .object([
                ("avg", averageHR.flatMap { Self.readable($0) ? .number(Number.rounded($0, places: 1)) : nil } ?? .null),
                ("max", .integer(maxHR)),
                ("zones", .array((zoneSeconds ?? [0, 0, 0, 0, 0]).map { .number(Number.rounded(Self.zone($0), places: 1)) })),
            ])))
        }
        if let averagePower, Self.readable(averagePower) {
            fields.append(("power", .object([("avg", .number(Number.rounded(averagePower, places: 1)))])))
        }
        return fields
    }

    /// A heart rate or power the reader takes: 0 to `largest`.
    static func readable(_ value: Double) -> Bool { value >= 0 && value <= largest }

    /// The most seconds a zone may say (over 27 years).
    static let longestZone = Duration.maximum * 1e4

    /// Seconds in a zone as written: within what the reader takes.
    static func zone(_ seconds: Double) -> Double { seconds.isFinite ? min(max(seconds, 0), longestZone) : 0 }

    /// The highest heart rate or power a line may say.
    static let largest = 10_000.0

    /// Reads the `hr` object of a line into this summary; false when it is damaged.
    public mutating func readHR(_ reader: inout JSONReader) -> Bool {
        var average: Double?
        var maximum: Int?
        var zones: [Double] = []
        let whole = reader.fields { key, reader in
            switch key {
            case "avg":
                if reader.readNull() { return true }
                guard let value = reader.readNumber(), Self.readable(value) else { return false }
                average = value
                return true
            case "max":
                guard let value = reader.readNumber(), Self.readable(value), value.rounded() == value else { return false }
                maximum = Int(value)
                return true
            case "zones":
                return reader.items { reader in
                    guard zones.count < 5, let value = reader.readNumber(), value >= 0, value <= Self.longestZone else { return false }
                    zones.append(value)
                    return true
                }
            default:
                return reader.skipValue()
            }
        }
        guard whole, let maximum, zones.isEmpty || zones.count == 5 else { return false }
        (averageHR, maxHR, zoneSeconds) = (average, maximum, zones.isEmpty ? nil : zones)
        return true
    }

    /// Reads the `power` object of a line into this summary; false when it is damaged.
    public mutating func readPower(_ reader: inout JSONReader) -> Bool {
        var average: Double?
        let whole = reader.fields { key, reader in
            guard key == "avg" else { return reader.skipValue() }
            guard let value = reader.readNumber(), Self.readable(value) else { return false }
            average = value
            return true
        }
        guard whole, let average else { return false }
        averagePower = average
        return true
    }
}
