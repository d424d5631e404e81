import IntervalEngine

/// The sensors' values as the live display shows them, in the title row: heart rate in
/// its zone's colour, power and cadence; a value whose sensor dropped out is dim, with a
/// question mark.
public struct SensorLine: Equatable, Sendable {
    public var readings: SensorReadings
    public var zone: Int?

    public init(readings: SensorReadings, zone: Int?) {
        self.readings = readings
        self.zone = zone
    }

    /// The zones' colours, from easy to hard: grey, blue, green, yellow, red.
    static let zoneColours = ["37", "34", "32", "33", "31"]

    public var line: Line {
        var spans: [Span] = []
        func add(_ text: String, stale: Bool, sgr: String) {
            if !spans.isEmpty { spans.append(Span("  ")) }
            spans.append(Span(stale ? text + "?" : text, stale ? "2" : sgr))
        }
        if let hr = readings.hr {
            let colour = zone.map { Self.zoneColours[min(max($0, 1), 5) - 1] } ?? "1"
            add("\(hr.value) bpm" + (zone.map { " Z\($0)" } ?? ""), stale: hr.stale, sgr: "1;" + colour)
        }
        if let power = readings.power { add("\(power.value) W", stale: power.stale, sgr: "1") }
        if let cadence = readings.cadence { add("\(Int(cadence.value.rounded())) rpm", stale: cadence.stale, sgr: "1") }
        return Line(spans)
    }
}
