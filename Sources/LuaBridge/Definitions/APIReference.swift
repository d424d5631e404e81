import IntervalEngine

/// `docs/api.md`: every global with its parameters, and every table with its fields, in
/// Markdown. Generated from the same table the loader registers from, so the reference
/// lists exactly what a routine can call.
public enum APIReference {
    public static func text() -> String {
        var lines = [
            "# Routine API: quick reference",
            "",
            "Generated from the engine's API table by `make definitions`; do not edit. The guide, with",
            "an example of each and the errors you may meet, is [routines.md](routines.md).",
            "",
        ]
        let groups: [(RoutineAPI.Function.Group, String)] = [
            (.constructor, "Constructors"), (.parameters, "Parameters"), (.action, "Actions (from hooks and cues)"),
        ]
        for (group, title) in groups {
            lines += ["## \(title)", ""]
            for function in RoutineAPI.functions where function.group == group {
                let returns = function.returns.map { " → `\($0 == "T" ? "table" : $0)`" } ?? ""
                lines += ["### `\(function.signature)`\(returns)", "", function.summary, ""]
                for parameter in function.parameters {
                    let type = parameter.type == "T" ? "table" : parameter.type
                    lines.append("- `\(parameter.name)`\(parameter.optional ? " (optional)" : ""), `\(type)`: \(parameter.doc)")
                }
                if !function.parameters.isEmpty { lines.append("") }
            }
        }
        lines += ["## Types", ""]
        for alias in RoutineTypes.aliases {
            lines += ["### `\(alias.name)`", "", "`\(alias.type)`. \(alias.doc)", ""]
        }
        for shape in RoutineTypes.all {
            lines += ["### `\(shape.name)`", "", shape.doc, ""]
            guard !shape.fields.isEmpty else { continue }
            lines += ["| field | type | |", "|---|---|---|"]
            if let items = shape.items { lines.append("| `[1]`, `[2]`, … | `\(items)` | The steps, in order. |") }
            for field in shape.fields {
                let type = field.type.replacingOccurrences(of: "|", with: "\\|")
                lines.append("| `\(field.name)`\(field.optional ? " (optional)" : "") | `\(type)` | \(field.doc) |")
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }
}
