import ArgumentParser
import IntervalEngine
import WorkoutValues

/// A number of the command line read by `PlainNumber`, as every number a person types is:
/// ArgumentParser's own reading of a `Double` is `Double(text)`, which takes `0x10`,
/// `1e-320`, `inf` and `nan`, and of an `Int` is `Int(text)`, which takes `+5`.
/// `QuickRunArguments` reads `--speed` and `--volume` with the same functions, so the two
/// parsers agree.
struct Plain<Value: PlainlyRead>: ExpressibleByArgument, CustomStringConvertible, Sendable {
    var value: Value

    init(_ value: Value) { self.value = value }

    init?(argument: String) {
        guard let value = Value.plain(argument) else { return nil }
        self.value = value
    }

    var description: String { value.plainText }
    var defaultValueDescription: String { description }
}

/// `--speed`, the `--max-…-seconds` limits, `sensors --seconds`.
typealias PlainDecimal = Plain<Double>
/// `--volume`, `--max-memory`, the `--max-…-instructions` limits.
typealias PlainWhole = Plain<Int>

protocol PlainlyRead: Sendable {
    static func plain(_ text: String) -> Self?
    var plainText: String { get }
}

extension Double: PlainlyRead {
    static func plain(_ text: String) -> Double? { PlainNumber.decimal(text) }
    var plainText: String { Number.format(self) }
}

extension Int: PlainlyRead {
    static func plain(_ text: String) -> Int? { PlainNumber.whole(text) }
    var plainText: String { String(self) }
}
