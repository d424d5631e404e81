/// A segment's `info` in words, for the live display's info area and `plan`: the sentence
/// when the payload has one (`info.text`, else `info.tip`), then its other fields as
/// `key: value` pairs (`combo: 1-2-3 · reps: 10`); targets (`Targets`' fields, as `workout
/// import` writes them) come before those, read as a rider reads them: `ramp 25–75% FTP ·
/// 85 rpm` (`TargetReading`). Routine-made text is escaped here, so every place that shows it is safe.
public enum InfoText {
    /// Nil when there is nothing to show (no `info`, or an empty one).
    public static func summary(_ info: JSONValue) -> String? {
        switch info {
        case .null:
            return nil
        case .object(let fields):
            let sentence = ["text", "tip"].lazy.compactMap { key in
                fields.first { $0.0 == key && $0.1.isText }.map { (key: key, text: value($0.1)) }
            }.first
            let targets = TargetReading.readings(fields)
            let pairs = fields.filter { $0.0 != sentence?.key && !targets.fields.contains($0.0) }.map {
                "\(VisibleText.escape($0.0)): \(value($0.1))"
            }
            let parts = [sentence?.text].compactMap { $0 } + targets.texts + pairs
            return parts.isEmpty ? nil : parts.joined(separator: " · ")
        default:
            let text = value(info)
            return text.isEmpty ? nil : text
        }
    }

    /// A value as a person reads it: text without quotes, numbers as written, a list of
    /// plain values joined by commas, anything deeper as compact JSON.
    static func value(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return VisibleText.escape(text)
        case .integer(let number): return String(number)
        case .number(let number): return Number.format(number)
        case .bool(let flag): return flag ? "yes" : "no"
        case .null: return ""
        case .array(let items) where items.allSatisfy(\.isPlain):
            return items.map { InfoText.value($0) }.joined(separator: ", ")
        default: return VisibleText.escape(value.text)
        }
    }
}

private extension JSONValue {
    var isText: Bool {
        if case .string = self { return true }
        return false
    }

    var isPlain: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }
}
