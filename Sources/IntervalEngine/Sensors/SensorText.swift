/// Sensors' values in words, the same on every output: `150 bpm  200 W  90 rpm`.
public enum SensorText {
    public static func values(hr: Int?, power: Int?, cadence: Double?) -> String {
        var parts: [String] = []
        if let hr { parts.append("\(hr) bpm") }
        if let power { parts.append("\(power) W") }
        if let cadence { parts.append("\(Int(cadence.rounded())) rpm") }
        return parts.joined(separator: "  ")
    }
}
