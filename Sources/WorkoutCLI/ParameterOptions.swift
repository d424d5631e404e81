import ArgumentParser
import IntervalEngine

/// `--set NAME=VALUE`, shared by `run`, `plan` and `check`. The text is split here (a
/// malformed one is a usage error before anything loads); its type is checked against
/// what the routine's `params{}` declares.
struct ParameterOptions: ParsableArguments {
    /// Repeatable; the last value given for a name wins, as with most command-line tools.
    @Option(name: .customLong("set"),
            help: ArgumentHelp("Set a parameter the routine declares (repeatable); `workout plan ROUTINE` lists them.",
                               valueName: "NAME=VALUE"),
            completion: .parameterSetting)
    var values: [String] = []

    func validate() throws {
        for argument in values {
            do {
                _ = try ParameterSetting(argument: argument)
            } catch {
                throw ValidationError(error.message)
            }
        }
    }

    var settings: [ParameterSetting] {
        values.compactMap { try? ParameterSetting(argument: $0) }
    }
}
