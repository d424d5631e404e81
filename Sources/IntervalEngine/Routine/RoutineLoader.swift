import CLua
import Foundation

/// Runs a routine file in a fresh sandboxed Lua state and turns what it returns into
/// a `Routine`.
public enum RoutineLoader {
    public static func load(path: String, limits: LuaLimits = LuaLimits()) throws(RoutineError) -> Routine {
        let name = (path as NSString).lastPathComponent
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            throw RoutineError(exists ? "\(path): cannot read the routine\(isDirectory.boolValue ? " (it is a directory)" : "")"
                                      : "\(path): no such routine file")
        }
        let directory = (path as NSString).deletingLastPathComponent
        let source = [UInt8](data)
        let routine = try load(source: source, fileName: name, directory: directory.isEmpty ? "." : directory,
                               limits: limits)
        let absolute = path.hasPrefix("/") ? path
            : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
        routine.filePath = (absolute as NSString).standardizingPath
        routine.sha256 = SHA256.hex(source)
        return routine
    }

    /// Loads a routine given as text; `directory` is where its `require` looks.
    public static func load(source: String, fileName: String, directory: String? = nil,
                            limits: LuaLimits = LuaLimits()) throws(RoutineError) -> Routine {
        try load(source: Array(source.utf8), fileName: fileName, directory: directory, limits: limits)
    }

    /// Loads a routine given as bytes, exactly as a file would hold them (the fuzzer feeds
    /// arbitrary bytes here).
    public static func load(source: [UInt8], fileName: String, directory: String? = nil,
                            limits: LuaLimits = LuaLimits()) throws(RoutineError) -> Routine {
        let lua = LuaState(chunkName: fileName, directory: directory, limits: limits)
        do {
            try lua.run(source: source, results: 1)
        } catch {
            throw RoutineError(located(error.message, in: fileName))
        }
        defer { lua.stack.pop() }
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

    /// An error raised without a position (`error(t)`, `error("x", 0)`, a memory error
    /// in a library call) still names the file.
    static func located(_ message: String, in fileName: String) -> String {
        let message = VisibleText.escape(message)
        let head = message.prefix { $0 != " " }
        let parts = head.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count >= 3, parts[0].hasSuffix(".lua"), Int(parts[1]) != nil { return message }
        if message.hasPrefix(fileName + ":") { return message }
        return "\(fileName): \(message)"
    }
}
