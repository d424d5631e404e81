import IntervalEngine
import WorkoutValues

extension SensorSummary {
    /// The fields a history line (or an open segment's record in it) carries, one object
    /// per quantity that keeps figures (`SensorQuantity.history`), by its key:
    /// `"hr": {"avg", "max", "zones"}`, `"power": {"avg"}`. Only values the reader takes
    /// back (`readable`), so that whatever is written is read. A quantity that keeps a
    /// maximum is written when it has one (its average may be null); else when it has an
    /// average.
    public var fields: [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = []
        for quantity in SensorQuantity.allCases {
            guard let figure = quantity.requiredFigure, let required = self[quantity, figure], Self.readable(required, quantity) else { continue }
            var object: [(String, JSONValue)] = []
            for figure in quantity.history {
                var value = JSONValue.null
                if let figure = self[quantity, figure], Self.readable(figure, quantity) { value = .number(Number.rounded(figure, places: 1)) }
                if figure == .maximum, quantity.isWhole, let maximum = self[quantity, .maximum], Self.readable(maximum, quantity) {
                    value = .integer(Int(maximum))
                }
                object.append((figure.rawValue, value))
            }
            // Heart rate's own: the seconds in each zone.
            if quantity == .hr {
                object.append(("zones", .array((zoneSeconds ?? [0, 0, 0, 0, 0]).map { .number(Number.rounded(Self.zone($0), places: 1)) })))
            }
            fields.append((quantity.key, .object(object)))
        }
        return fields
    }

    /// The quantity a line's `key` holds the figures of, if any.
    public static func summed(_ key: String) -> SensorQuantity? {
        SensorQuantity(rawValue: key).flatMap { $0.history.isEmpty ? nil : $0 }
    }

    /// A figure the reader takes: 0 to `largest` (a heart rate, power), or as far as the
    /// quantity's samples go beyond (a distance's metres, a downhill incline).
    static func readable(_ value: Double, _ quantity: SensorQuantity) -> Bool {
        value >= min(0, quantity.recordable.lowerBound) && value <= max(largest, quantity.recordable.upperBound)
    }

    /// The most seconds a zone may say (over 27 years).
    static let longestZone = Duration.maximum * 1e4

    /// Seconds in a zone as written: within what the reader takes.
    static func zone(_ seconds: Double) -> Double { seconds.isFinite ? min(max(seconds, 0), longestZone) : 0 }

    /// The highest figure a line may say.
    static let largest = 10_000.0

    /// Reads a quantity's object of a line into this summary (`hr`, `power`); false when
    /// it is damaged.
    public mutating func read(_ quantity: SensorQuantity, _ reader: inout JSONReader) -> Bool {
        var figures: [SensorQuantity.Figure: Double] = [:]
        var zones: [Double] = []
        let whole = reader.fields { key, reader in
            if let figure = SensorQuantity.Figure(rawValue: key), quantity.history.contains(figure) {
                // Only a figure that is not required may be null.
                if figure != quantity.requiredFigure, reader.readNull() { return true }
                guard let value = reader.readNumber(), Self.readable(value, quantity),
                      figure == .average || !quantity.isWhole || value.rounded() == value else { return false }
                figures[figure] = value
                return true
            }
            guard quantity == .hr, key == "zones" else { return reader.skipValue() }
            return reader.items { reader in
                guard zones.count < 5, let value = reader.readNumber(), value >= 0, value <= Self.longestZone else { return false }
                zones.append(value)
                return true
            }
        }
        guard whole, let required = quantity.requiredFigure, figures[required] != nil, zones.isEmpty || zones.count == 5 else { return false }
        for figure in quantity.history { self[quantity, figure] = figures[figure] }
        if quantity == .hr { zoneSeconds = zones.isEmpty ? nil : zones }
        return true
    }
}
