import IntervalEngine
import WorkoutValues

/// How `plan` and `list` show a routine's parameters.
enum ParameterList {
    /// `plan`: one line each, the value this run uses, the default when `--set` changed
    /// it, and the help text.
    static func lines(_ parameters: [Parameter], style: Style) -> [String] {
        guard !parameters.isEmpty else { return [] }
        let nameWidth = parameters.map(\.name.count).max()!
        let valueWidth = parameters.map(\.value.text.count).max()!
        let defaults = parameters.map { parameter -> String in
            if case .history(let why) = parameter.origin {
                return "(from history" + (why.map { ": \($0)" } ?? "") + "; default \(parameter.defaultValue.text))"
            }
            return parameter.isSet ? "(default \(parameter.defaultValue.text))" : ""
        }
        let defaultWidth = defaults.map(\.count).max()!
        var lines = ["Parameters (change with --set NAME=VALUE):"]
        for (parameter, defaultText) in zip(parameters, defaults) {
            var line = "  " + Padding.column(parameter.name, nameWidth) + "  " + Padding.column(parameter.value.text, valueWidth)
            if defaultWidth > 0 { line += "  " + Padding.column(defaultText, defaultWidth) }
            if let help = parameter.help { line += "  " + style.dim(help.visible) }
            lines.append(line.trimmingTrailingSpaces())
        }
        return lines
    }

    /// `list`: the defaults on one line, `rounds=8  work=20s`.
    static func defaults(_ parameters: [Parameter]) -> String {
        parameters.map { "\($0.name)=\($0.defaultValue.text)" }.joined(separator: "  ")
    }

}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
