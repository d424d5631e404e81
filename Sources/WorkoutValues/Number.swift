import Foundation

/// Numbers as people and JSON read them: `20`, not `20.0`; `0.5`, not `0.50000000001`.
public enum Number {
    public static func format(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        if value.rounded() == value && abs(value) < 1e15 { return String(Int64(value)) }
        let text = "\(value)"
        // Huge and tiny numbers keep their exponent (`1e+308`, `1e-10`, valid JSON): written
        // out the one would be 309 digits, the other 0.
        guard text.contains("e"), abs(value) < 1e15, abs(value) >= 1e-9 else { return text }
        // Plain decimals rather than `7.1e-05`, for people and for strict readers.
        var fixed = String(format: "%.9f", value)
        while fixed.hasSuffix("0") { fixed.removeLast() }
        return fixed.hasSuffix(".") ? String(fixed.dropLast()) : fixed
    }

    /// A number from a file or a routine as a whole `Int`, rounded down and clamped to
    /// what an `Int` holds (NaN is 0): the conversion itself would trap on `1e19`.
    public static func whole(_ value: Double) -> Int {
        guard !value.isNaN else { return 0 }
        if value >= 9.2e18 { return Int.max }
        if value <= -9.2e18 { return Int.min }
        return Int(value.rounded(.down))
    }

    /// Rounds to `places` decimals to hide binary noise (`0.30000000000000004`).
    public static func rounded(_ value: Double, places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}
