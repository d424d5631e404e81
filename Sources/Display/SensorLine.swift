import WorkoutValues

/// The sensors' values as the live display shows them: in words in the title row (heart
/// rate in its zone's colour, power and cadence; a value whose sensor dropped out is dim,
/// with a question mark), and the heart rate and power as numbers for the big digits
/// beside the clock.
public struct SensorLine: Equatable, Sendable {
    public var readings: SensorReadings
    public var zone: Int?

    public init(readings: SensorReadings, zone: Int?) {
        self.readings = readings
        self.zone = zone
    }

    /// The zones' colours, from easy to hard: grey, blue, green, yellow, red.
    static let zoneColours = ["37", "34", "32", "33", "31"]

    /// A value as a number for the big digits beside the clock.
    public struct Number: Equatable, Sendable {
        public var value: Int
        public var stale: Bool
        /// Its style where it stands on the terminal's own background.
        public var sgr: String
    }

    /// The quantities worth big digits (`SensorQuantity.bigDigits`: heart rate, in its
    /// zone's colour, then power).
    public var numbers: [Number] {
        SensorQuantity.allCases.filter(\.bigDigits).compactMap { quantity in
            readings[quantity].map { Number(value: Int($0.value.rounded()), stale: $0.stale, sgr: style(quantity)) }
        }
    }

    /// Bold; heart rate in its zone's colour when the zone is known.
    func style(_ quantity: SensorQuantity) -> String {
        quantity == .hr ? "1;" + (zone.map { Self.zoneColours[min(max($0, 1), 5) - 1] } ?? "39") : "1"
    }

    /// The quantities shown in words (`SensorQuantity.inWords`), heart rate with its zone.
    public var line: Line {
        var spans: [Span] = []
        for quantity in SensorQuantity.allCases where quantity.inWords {
            guard let reading = readings[quantity] else { continue }
            let text = quantity.words(reading.value) + (quantity == .hr ? zone.map { " Z\($0)" } ?? "" : "")
            if !spans.isEmpty { spans.append(Span("  ")) }
            spans.append(Span(reading.stale ? text + "?" : text, reading.stale ? "2" : style(quantity)))
        }
        return Line(spans)
    }
}
