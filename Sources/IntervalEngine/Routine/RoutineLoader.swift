import CLua
import Foundation

/// Runs a routine file in a fresh sandboxed Lua state and turns what it returns into
/// a `Routine`.
public enum RoutineLoader {
    /// `settings` are the `--set` values; the routine's `params{}` checks and applies them.
    public static func load(path: String, settings: [ParameterSetting] = [],
                            limits: LuaLimits = LuaLimits()) throws(RoutineError) -> Routine {
        let name = (path as NSString).lastPathComponent
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            throw RoutineError(exists ? "\(path): cannot read the routine\(isDirectory.boolValue ? " (it is a directory)" : "")"
                                      : "\(path): no such routine file")
        }
        return try load(source: [UInt8](data), fileName: name, settings: settings, limits: limits)
    }

    public static func load(source: String, fileName: String, settings: [ParameterSetting] = [],
                            limits: LuaLimits = LuaLimits()) throws(RoutineError) -> Routine {
        try load(source: Array(source.utf8), fileName: fileName, settings: settings, limits: limits)
    }

    static func load(source: [UInt8], fileName: String, settings: [ParameterSetting],
                     limits: LuaLimits) throws(RoutineError) -> Routine {
        let lua = LuaState(chunkName: fileName, limits: limits)
        lua.builder.settings = settings
        do {
            try lua.run(source: source, results: 1)
        } catch {
            try checkSettings(lua, fileName: fileName, loaded: false)
            // A routine that fails with the user's values should say which they were.
            let given = settings.isEmpty ? "" : " (with " + settings.map { "--set \($0.argument)" }.joined(separator: " ") + ")"
            throw RoutineError(error.message + given)
        }
        defer { lua.stack.pop() }
        try checkSettings(lua, fileName: fileName, loaded: true)
        guard let raw = luaL_testudata(lua.L, -1, RoutineAPI.routineMetatable) else {
            let got = lua.stack.describe(at: -1)
            if let built = lua.builder.workouts.last {
                throw RoutineError("\(fileName):\(built.line): workout{…} is built but not returned (write `return workout { … }`)")
            }
            let lastLine = max(1, source.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).count)
            throw RoutineError("\(fileName):\(lastLine): the routine must return workout { … }, got \(got)")
        }
        let spec = lua.builder.workouts[raw.load(as: Int.self)]
        return Routine(spec: spec, lua: lua)
    }

    /// A `--set` the routine could not take is the user's mistake, not the routine's:
    /// a usage error that names the routine and what it declares.
    /// Before `loaded`, a routine that failed ahead of its params{} has declared nothing yet.
    private static func checkSettings(_ lua: LuaState, fileName: String, loaded: Bool) throws(RoutineError) {
        if let problem = lua.builder.settingProblem {
            throw RoutineError("\(fileName): \(problem)", isUsage: true)
        }
        guard let unknown = lua.builder.settings.first(where: { setting in
            !(lua.builder.parameters ?? []).contains { $0.name == setting.name }
        }) else { return }
        guard loaded || lua.builder.parameters != nil else { return }
        let names = (lua.builder.parameters ?? []).map(\.name)
        let takes = names.isEmpty ? "\(fileName) takes no parameters"
                                  : "\(fileName) takes " + names.joined(separator: ", ")
        let closest = names.map { ($0, Parameter.distance($0, unknown.name)) }.min { $0.1 < $1.1 }
        let guess = closest.flatMap { $0.1 <= 2 ? " (did you mean \($0.0)?)" : nil } ?? ""
        throw RoutineError("\(fileName): --set \(unknown.argument): no such parameter\(guess); \(takes)", isUsage: true)
    }
}
