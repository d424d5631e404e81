import Foundation

/// Numbers as people and JSON read them: `20`, not `20.0`; `0.5`, not `0.50000000001`.
enum Number {
    static func format(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        if value.rounded() == value && abs(value) < 1e15 { return String(Int64(value)) }
        let text = "\(value)"
        guard text.contains("e") else { return text }
        // Plain decimals rather than `7.1e-05`, for people and for strict readers.
        var fixed = String(format: "%.9f", value)
        while fixed.hasSuffix("0") { fixed.removeLast() }
        return fixed.hasSuffix(".") ? String(fixed.dropLast()) : fixed
    }

    /// Rounds to `places` decimals to hide binary noise (`0.30000000000000004`).
    static func rounded(_ value: Double, places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}
