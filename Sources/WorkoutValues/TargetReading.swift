/// A target as a rider reads it — `25–75% FTP`, `ramp 50–75% FTP`, `140–150 bpm`, `Z2 HR`
/// — for `InfoText` (the live display's info area and `plan`), rather than the raw JSON
/// of `{ low = 25, high = 75 }`. A range's ends are joined by an en dash, as printed
/// training plans write them.
enum TargetReading {
    /// The target fields of `info` in words, in `Targets`' order (power first, as on a
    /// trainer's screen), and the names of the fields they read; a `ramp = true` that made
    /// a range a ramp says nothing on its own.
    static func readings(_ fields: [(String, JSONValue)]) -> (texts: [String], fields: Set<String>) {
        var ignored = Set<String>()
        let targets = Targets(info: .object(fields), ignored: &ignored)
        var texts: [String] = []
        var rampUsed = false
        for (key, value) in targets.ordered where key != .ramp {
            let ramp = targets.has(.ramp) && key.ramps && { if case .range = value { true } else { false } }()
            if ramp { rampUsed = true }
            texts.append((ramp ? "ramp " : "") + text(key, value))
        }
        if targets.has(.ramp) && !rampUsed { texts.append("ramp") }
        return (texts, Set(targets.values.keys.map(\.rawValue)))
    }

    /// One target in words, escaped.
    static func text(_ key: Targets.Key, _ value: Targets.Value) -> String {
        func amount(_ unit: String) -> String {
            switch value {
            case .number(let number): Number.format(number) + unit
            case let .range(low, high): Number.format(low) + "–" + Number.format(high) + unit
            case .text(let text): VisibleText.escape(text)
            case .flag: ""
            }
        }
        return switch key {
        case .power: amount("% FTP")
        case .watts: amount(" W")
        case .hr: amount("% HR")
        case .lthr: amount("% LTHR")
        case .bpm: amount(" bpm")
        case .pace: if case .text = value { amount("") + " pace" } else { amount("% pace") }
        case .cadence: amount(" rpm")
        case .incline: amount(" % incline")
        case .zone, .mmp: amount("")
        case .hrZone: amount("") + " HR"
        case .paceZone: amount("") + " pace"
        case .ramp: "ramp"
        case .freeride: "free ride"
        case .maxEffort: "all out"
        }
    }
}

extension Targets.Key {
    /// The keys whose range a `ramp = true` makes a ramp (cadence is only ever a range).
    var ramps: Bool { ![.cadence, .zone, .hrZone, .paceZone, .mmp, .ramp, .freeride, .maxEffort].contains(self) }
}
