import WorkoutValues

/// A class's participants (`run --mqtt`) in one row of the live display: each name with
/// its heart rate in its zone's colour and its power, as many as the width holds, then
/// how many more. Names come from the network: escaped (`VisibleText`) and cut short.
public struct ClassBand: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public var name: String
        public var hr: Int?
        public var zone: Int?
        public var power: Int?
        /// Silent for 30 s, or left: dim.
        public var away: Bool

        public init(name: String, hr: Int?, zone: Int?, power: Int?, away: Bool) {
            self.name = name
            self.hr = hr
            self.zone = zone
            self.power = power
            self.away = away
        }
    }

    /// In the order shown.
    public var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// Characters of a name shown at most.
    static let longestName = 12

    public func line(width: Int, glyphs: Glyphs) -> Line {
        guard !entries.isEmpty else { return Line("class: no participants yet", "2").centered(in: width) }
        var line = Line()
        for (position, entry) in entries.enumerated() {
            var spans = [Span(line.width == 0 ? "" : "  "), Span(Self.name(entry.name, glyphs: glyphs) + " ", entry.away ? "2" : nil)]
            if entry.away {
                spans.append(Span("away", "2"))
            } else {
                spans.append(Span(entry.hr.map(String.init) ?? "-",
                                  "1;" + (entry.zone.map { SensorLine.zoneColours[min(max($0, 1), 5) - 1] } ?? "39")))
                if let power = entry.power { spans.append(Span(" \(power)W", "1")) }
            }
            let part = Line(spans)
            let left = entries.count - position - 1
            let more = left > 0 ? Line("  +\(left)", "2") : Line()
            guard line.width + part.width + more.width <= width else {
                let rest = Line("  +\(entries.count - position)", "2")
                if line.width + rest.width <= width { line = line + rest }
                break
            }
            line = line + part
        }
        return line.centered(in: width)
    }

    /// Escaped (a control character as `\27`), at most `longestName` characters.
    static func name(_ text: String, glyphs: Glyphs) -> String {
        let escaped = VisibleText.escape(text)
        guard escaped.count > longestName else { return escaped }
        return String(escaped.prefix(longestName - 1)) + glyphs.ellipsis
    }
}
