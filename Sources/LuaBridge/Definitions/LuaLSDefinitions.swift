import IntervalEngine

/// The definition file for lua-language-server (`---@meta`): completion, hover help and
/// type checks for every global a routine can call and every table it writes or gets.
/// Generated from `RoutineAPI` and `RoutineTypes`; `make definitions` writes it to
/// `programs/types/workout.lua`, and `workout new` beside a new routine.
public enum LuaLSDefinitions {
    public static func text() -> String {
        var lines = [
            "---@meta",
            "-- The workout routine API for lua-language-server: completion, hover help and type",
            "-- checks in your editor. Generated from the engine's API table by `make definitions`;",
            "-- do not edit. Reference: docs/routines.md.",
            "-- luacheck: ignore",
            "",
        ]
        for alias in RoutineTypes.aliases {
            lines += comment(alias.doc)
            lines.append("---@alias \(alias.name) \(alias.type)")
            lines.append("")
        }
        for shape in RoutineTypes.all {
            lines += comment(shape.doc)
            lines.append("---@class \(shape.name)")
            if let items = shape.items { lines.append("---@field [integer] \(items)") }
            for field in shape.fields {
                lines.append("---@field \(field.name)\(field.optional ? "?" : "") \(field.type) \(plain(field.doc))")
            }
            lines.append("")
        }
        for function in RoutineAPI.functions {
            lines += comment(function.summary)
            if function.returns == "T" { lines.append("---@generic T: table") }
            for parameter in function.parameters {
                lines.append("---@param \(parameter.name)\(parameter.optional ? "?" : "") \(parameter.type) \(plain(parameter.doc))")
            }
            if let returns = function.returns { lines.append("---@return \(returns)") }
            for overload in function.overloads { lines.append("---@overload \(overload)") }
            lines.append("function \(function.name)(\(function.parameters.map(\.name).joined(separator: ", "))) end")
            lines.append("")
        }
        lines += comment(RoutineTypes.history.doc)
        lines += ["---@type workout.History", "history = {}", ""]
        lines += [
            "---The Bluetooth sensors' latest values (nil when none gives one); see `on_sample`.",
            "---@type workout.Sample",
            "sensor = {}",
            "",
        ]
        // The sandbox keeps only these four of `os` (docs/routines.md, "What a routine can reach").
        lines += [
            "---Only `os.time`, `os.clock`, `os.date` and `os.difftime` exist in a routine.",
            "---@class workout.os",
            "---@field time fun(t?: table): integer",
            "---@field clock fun(): number",
            "---@field date fun(format?: string, time?: integer): string|table",
            "---@field difftime fun(t2: integer, t1?: integer): number",
            "---@type workout.os",
            "os = {}",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `.luarc.json` beside routines: Lua 5.4, and the libraries the sandbox removes
    /// turned off so the editor does not offer them.
    public static let luarc = """
        {
          "runtime.version": "Lua 5.4",
          "runtime.builtin": {
            "io": "disable",
            "os": "disable",
            "debug": "disable",
            "package": "disable"
          },
          "workspace.library": ["types"]
        }

        """

    private static func comment(_ text: String) -> [String] {
        ["---" + text]
    }

    /// LuaLS shows the text after a `@field`/`@param` type as Markdown; keep it on one line.
    private static func plain(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: " ")
    }
}
