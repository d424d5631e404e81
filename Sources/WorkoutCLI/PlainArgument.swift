import ArgumentParser
import IntervalEngine

/// A number of the command line (`--speed`, the `--max-…-seconds` limits, `sensors
/// --seconds`) read by `PlainNumber`, as every number a person types is: ArgumentParser's
/// own reading of a `Double` is `Double(text)`, which takes `0x10`, `1e-320`, `inf` and `nan`.
/// `QuickRunArguments` reads `--speed` with the same function, so the two parsers agree.
struct PlainDecimal: ExpressibleByArgument, CustomStringConvertible, Sendable {
    var value: Double

    init(_ value: Double) { self.value = value }

    init?(argument: String) {
        guard let value = PlainNumber.decimal(argument) else { return nil }
        self.value = value
    }

    var description: String { Number.format(value) }
    var defaultValueDescription: String { description }
}

/// A whole number of the command line (`--volume`, `--max-memory`, the `--max-…-instructions`
/// limits): digits only (`Int(text)` takes `+5`).
struct PlainWhole: ExpressibleByArgument, CustomStringConvertible, Sendable {
    var value: Int

    init(_ value: Int) { self.value = value }

    init?(argument: String) {
        guard let value = PlainNumber.whole(argument) else { return nil }
        self.value = value
    }

    var description: String { String(value) }
    var defaultValueDescription: String { description }
}
