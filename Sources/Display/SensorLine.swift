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

    /// The heart rate (in its zone's colour), then the power: what is worth big digits.
    public var numbers: [Number] {
        var numbers: [Number] = []
        if let hr = readings.hr { numbers.append(Number(value: hr.value, stale: hr.stale, sgr: hrStyle)) }
        if let power = readings.power { numbers.append(Number(value: power.value, stale: power.stale, sgr: "1")) }
        return numbers
    }

    /// Bold, in the zone's colour when the zone is known.
    var hrStyle: String { "1;" + (zone.map { Self.zoneColours[min(max($0, 1), 5) - 1] } ?? "39") }

    public var line: Line {
        var spans: [Span] = []
        func add(_ text: String, stale: Bool, sgr: String) {
            if !spans.isEmpty { spans.append(Span("  ")) }
            spans.append(Span(stale ? text + "?" : text, stale ? "2" : sgr))
        }
        if let hr = readings.hr {
            add("\(hr.value) bpm" + (zone.map { " Z\($0)" } ?? ""), stale: hr.stale, sgr: hrStyle)
        }
        if let power = readings.power { add("\(power.value) W", stale: power.stale, sgr: "1") }
        if let cadence = readings.cadence { add("\(Int(cadence.value.rounded())) rpm", stale: cadence.stale, sgr: "1") }
        return Line(spans)
    }
}
