import IntervalEngine
import WorkoutValues

/// The small pieces of intervals.icu's workout text that its reader and writer share:
/// durations (`1h`, `10m`, `30s`, `1m30`, `5'`, `1'30"`), and how a step's text names
/// its kind.
enum IntervalsText {
    /// Seconds for a duration token; nil when the token is not one. Units come largest
    /// first; a bare number after `h` is minutes, after `m` or `'` seconds (`1m30`).
    static func duration(_ token: String) -> Double? {
        let units: [Character: Double] = ["h": 3600, "m": 60, "s": 1, "'": 60, "’": 60, "\"": 1, "”": 1]
        var total = 0.0
        var number = ""
        var last = Double.infinity
        var sawUnit = false
        for character in token.lowercased() {
            if character.isASCII && (character.isNumber || character == ".") {
                number.append(character)
            } else if let unit = units[character] {
                guard let value = decimal(number), unit < last else { return nil }
                total += value * unit
                last = unit
                number = ""
                sawUnit = true
            } else {
                return nil
            }
        }
        guard sawUnit else { return nil }
        if !number.isEmpty {
            guard let value = decimal(number), last > 1 else { return nil }
            total += value * (last == 3600 ? 60 : 1)
        }
        return total
    }

    /// `2km`, `400mtr`, `1.5mi`, `500y`: a distance, which a timer cannot follow.
    /// A distance step's metres: `400mtr`, `1km`, `1.5km`, `2mi`, `800yds` (a bare `m`
    /// is minutes there); nil for anything else or a distance no step has.
    static func distance(_ token: String) -> Double? {
        let lower = token.lowercased()
        for (unit, metres) in [("km", 1_000.0), ("mtr", 1), ("mi", 1_609.344), ("yds", 0.9144), ("yd", 0.9144), ("y", 0.9144)]
        where lower.hasSuffix(unit) {
            guard let number = decimal(String(lower.dropLast(unit.count))) else { continue }
            return DistanceText.checked(number * metres)
        }
        return nil
    }

    /// How a distance step is written: `400mtr`, `1.5km` (whole metres from 1 km),
    /// `2mi` (quarter miles), so that it reads back as the same metres.
    static func format(metres: Double) -> String {
        let miles = metres / 1_609.344
        if (miles * 4).rounded() == miles * 4 || abs((miles * 4).rounded() - miles * 4) < 1e-9 {
            let quarters = (miles * 4).rounded() / 4
            if distance(Number.format(quarters) + "mi") == metres { return Number.format(quarters) + "mi" }
        }
        if metres >= 1_000, metres.rounded() == metres { return Number.format(metres / 1_000) + "km" }
        return Number.format(metres) + "mtr"
    }

    static func isDistance(_ token: String) -> Bool {
        let lower = token.lowercased()
        for unit in ["km", "mtr", "mi", "yds", "yd", "y"] where lower.hasSuffix(unit) {
            let number = lower.dropLast(unit.count)
            if decimal(String(number)) != nil { return true }
        }
        return false
    }

    static func decimal(_ text: String) -> Double? { WorkoutFileRules.decimal(text) }

    /// How a duration is written: `1h2m30s`, `10m`, `45s`, `2.5s`.
    static func format(_ seconds: Double) -> String {
        guard seconds.rounded() == seconds else { return Number.format(seconds) + "s" }
        let total = Int(seconds)
        var text = ""
        if total >= 3600 { text += "\(total / 3600)h" }
        if total % 3600 >= 60 { text += "\(total % 3600 / 60)m" }
        if total % 60 > 0 || text.isEmpty { text += "\(total % 60)s" }
        return text
    }

    /// The kind a step's text names: `Rest: Walk` says rest (any one word before a colon
    /// is a kind, so a routine's own kinds survive), and text that starts with a word for
    /// one — `Recovery spin`, `Warm up`, `Cooldown` — says that kind. Returns the kind and
    /// the name left.
    static func kind(of text: String) -> (kind: String, name: String)? {
        if let colon = text.firstIndex(of: ":") {
            let word = text[..<colon]
            if !word.isEmpty, word.count <= 20, word.allSatisfy({ $0.isLetter }) {
                return (word.lowercased(), String(text[text.index(after: colon)...]).trimmingWhitespace())
            }
        }
        let words = text.lowercased().split(whereSeparator: { !$0.isLetter && $0 != "-" })
        guard let first = words.first else { return nil }
        let second = words.count > 1 ? words[1] : ""
        switch first {
        case "rest", "recovery", "recover": return ("rest", text)
        case "warmup", "warm-up": return ("warmup", text)
        case "cooldown", "cool-down": return ("cooldown", text)
        case "warm" where second == "up": return ("warmup", text)
        case "cool" where second == "down": return ("cooldown", text)
        default: return nil
        }
    }

    /// `text` without any of `characters` at either end.
    static func trim(_ text: String, _ characters: String) -> String {
        var slice = Substring(text)
        while let first = slice.first, first.isWhitespace || characters.contains(first) { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace || characters.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
