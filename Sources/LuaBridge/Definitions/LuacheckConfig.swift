import CLua
import IntervalEngine

/// `.luacheckrc` for routines: exactly the globals a routine has — what the sandbox
/// leaves of Lua's libraries (read from a live sandboxed state, so it cannot disagree
/// with `Sandbox`) and the routine API — so luacheck flags `io.open`, a misspelt `wrok`
/// or a stray global before the routine runs.
public enum LuacheckConfig {
    public static func text() -> String {
        let api = Set(RoutineAPI.functions.map(\.name))
        var lua = ["-- luacheck configuration for workout routines. Generated from the engine's API table and",
                   "-- its sandbox by `make definitions`; do not edit. Reference: docs/routines.md.",
                   "stds.workout = {",
                   "  read_globals = {",
                   "    -- What the sandbox leaves of Lua 5.4."]
        for (name, fields) in sandboxGlobals() where !api.contains(name) {
            if name == "history" {
                // A read-only proxy: its helpers, and `history[i]`.
                let helpers = RoutineTypes.history.fieldNames.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
                lua.append("    history = { other_fields = true, fields = { \(helpers) } },")
            } else if name == "sensor" {
                // Filled in as sensors' values come: its fields are the sample's.
                let names = RoutineTypes.sample.fields.map { "\"\($0.name)\"" }.joined(separator: ", ")
                lua.append("    sensor = { fields = { \(names) } },")
            } else if let fields {
                lua.append("    \(name) = { fields = { \(fields.map { "\"\($0)\"" }.joined(separator: ", ")) } },")
            } else {
                lua.append("    \"\(name)\",")
            }
        }
        lua.append("    -- The routine API.")
        for function in RoutineAPI.functions {
            lua.append("    \"\(function.name)\",")
        }
        lua += ["  },", "}", "std = \"workout\"",
                "-- LuaLS definition files declare the API as globals on purpose.",
                "exclude_files = { \"**/types/*.lua\" }", ""]
        return lua.joined(separator: "\n")
    }

    /// Every global of a fresh routine state, sorted; tables with their fields.
    static func sandboxGlobals() -> [(String, [String]?)] {
        let lua = LuaState(chunkName: "globals")
        let stack = lua.stack
        var globals: [(String, [String]?)] = []
        lua_rawgeti(lua.L, workout_registryindex(), lua_Integer(LUA_RIDX_GLOBALS))
        stack.forEachPair(-1) {
            guard let name = stack.string(at: -2) else { return }
            if stack.type(at: -1) == LUA_TTABLE && name != "_G" {
                var fields: [String] = []
                stack.forEachPair(-1) {
                    if let field = stack.string(at: -2) { fields.append(field) }
                }
                globals.append((name, fields.sorted()))
            } else {
                globals.append((name, nil))
            }
        }
        stack.pop()
        return globals.sorted { $0.0 < $1.0 }
    }
}
