import CLua
import Foundation
import IntervalEngine
import PastSessions
import SoundFiles
import WorkoutValues

/// Runs a routine file in a fresh sandboxed Lua state and turns what it returns into
/// a `Routine`.
public enum RoutineLoader {
    /// `settings` are the `--set` values; the routine's `params{}` checks and applies them.
    /// `history`: where its `history` reads from (the history file; nil: an empty history). `soundFiles`:
    /// whether the sound files it names are found and decoded (beside it, then in the
    /// user's sounds folder), with the user's default sounds under its own.
    public static func load(path: String, settings: [ParameterSetting] = [],
                            limits: LuaLimits = LuaLimits(), history: (any HistorySource)? = nil,
                            soundFiles: SoundFileReading = .skipped) throws(RoutineError) -> Routine {
        let name = (path as NSString).lastPathComponent
        let source: [UInt8]
        do {
            source = try RoutineFile.read(path)
        } catch {
            throw RoutineError("\(path): \(error.explanation)")
        }
        let directory = (path as NSString).deletingLastPathComponent
        let routine = try load(source: source, fileName: name, directory: directory.isEmpty ? "." : directory,
                               settings: settings, limits: limits, history: history, soundFiles: soundFiles)
        let absolute = path.hasPrefix("/") ? path
            : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
        routine.filePath = (absolute as NSString).standardizingPath
        routine.sha256 = SHA256.hex(source)
        return routine
    }

    /// Loads a routine given as text; `directory` is where its `require` looks.
    public static func load(source: String, fileName: String, directory: String? = nil,
                            settings: [ParameterSetting] = [],
                            limits: LuaLimits = LuaLimits(), history: (any HistorySource)? = nil) throws(RoutineError) -> Routine {
        try load(source: Array(source.utf8), fileName: fileName, directory: directory, settings: settings,
                 limits: limits, history: history)
    }

    /// Loads a routine given as bytes, exactly as a file would hold them (the fuzzer feeds
    /// arbitrary bytes here).
    ///
    /// A routine's history is its own sessions, matched by its name, which is known only
    /// once the file has run: a routine that reads its history while it loads (a
    /// parameter's `from_history`) is run once with an empty history to learn its name,
    /// then again with its sessions. One that does not is run once.
    ///
    /// Sound files are read only for a routine with a `directory` (one loaded from a file).
    public static func load(source: [UInt8], fileName: String, directory: String? = nil,
                            settings: [ParameterSetting] = [],
                            limits: LuaLimits = LuaLimits(), history: (any HistorySource)? = nil,
                            soundFiles: SoundFileReading = .skipped) throws(RoutineError) -> Routine {
        var sounds = Sounds(files: .skipped, defaults: .standard)
        if case .decoded(let directories) = soundFiles, let directory {
            sounds = Sounds(files: RoutineSoundFiles(reading: soundFiles, folders: SoundFolders(
                folders: [directory, directories.sounds])), defaults: try UserSounds.scheme(directories))
        }
        let first = try run(source: source, fileName: fileName, directory: directory, settings: settings, limits: limits,
                            history: RoutineHistory(file: history), sounds: sounds)
        guard first.history.asked else {
            first.history.name = first.routine.name
            first.history.prime(for: source)
            return first.routine
        }
        let second = try run(source: source, fileName: fileName, directory: directory, settings: settings, limits: limits,
                             history: RoutineHistory(file: history, name: first.routine.name), sounds: sounds)
        second.history.prime(for: source)
        return second.routine
    }

    /// A routine the file built, and the history its Lua state reads from.
    private struct Loaded {
        var routine: Routine
        var history: RoutineHistory
    }

    /// What a routine's sounds start from: its files (none decoded yet) and the defaults.
    private struct Sounds {
        var files: RoutineSoundFiles
        var defaults: SoundScheme
    }

    private static func run(source: [UInt8], fileName: String, directory: String?, settings: [ParameterSetting],
                            limits: LuaLimits, history: RoutineHistory, sounds: Sounds) throws(RoutineError) -> Loaded {
        let lua = LuaState(chunkName: fileName, directory: directory, limits: limits)
        lua.history = history
        lua.routineSoundFiles = sounds.files
        lua.defaultSounds = sounds.defaults
        lua.builder.settings = settings
        do {
            try lua.run(source: source, results: 1)
        } catch {
            try checkSettings(lua, fileName: fileName, loaded: false)
            // A routine that fails with the user's values should say which they were.
            let given = settings.isEmpty ? "" : " (with " + settings.map { "--set \($0.argument)" }.joined(separator: " ") + ")"
            throw RoutineError(located(error.message, in: fileName) + given)
        }
        defer { lua.stack.pop() }
        try checkSettings(lua, fileName: fileName, loaded: true)
        guard let raw = luaL_testudata(lua.L, -1, RoutineAPI.routineMetatable) else {
            let got = lua.stack.describe(at: -1)
            if let built = lua.builder.workouts.last {
                throw RoutineError("\(fileName):\(built.line): workout{…} is built but not returned (write `return workout { … }`)")
            }
            let lastLine = max(1, source.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).count)
            // A table or a function, and no workout built: a helper for `require`.
            let type = lua_type(lua.L, -1)
            throw RoutineError("\(fileName):\(lastLine): the routine must return workout { … }, got \(got)",
                               isModule: type == LUA_TTABLE || type == LUA_TFUNCTION)
        }
        let spec = lua.builder.workouts[raw.load(as: Int.self)]
        return Loaded(routine: lua.routine(spec), history: history)
    }

    /// A `--set` the routine could not take is the user's mistake, not the routine's:
    /// a usage error that names the routine and what it declares.
    /// Before `loaded`, a routine that failed ahead of its params{} has declared nothing yet.
    private static func checkSettings(_ lua: LuaState, fileName: String, loaded: Bool) throws(RoutineError) {
        if let problem = lua.builder.settingProblem {
            throw RoutineError("\(fileName): \(problem)", isUsage: true)
        }
        // The athlete's own values (max_hr, ftp) are the run's, taken by every routine.
        guard let unknown = lua.builder.settings.first(where: { setting in
            !(lua.builder.parameters ?? []).contains { $0.name == setting.name }
                && !Athlete.settingNames.contains(setting.name)
        }) else { return }
        guard loaded || lua.builder.parameters != nil else { return }
        let names = (lua.builder.parameters ?? []).map(\.name)
        let takes = names.isEmpty ? "\(fileName) takes no parameters"
                                  : "\(fileName) takes " + names.joined(separator: ", ")
        let guess = Parameter.suggestion(for: unknown.name, among: names)
        throw RoutineError("\(fileName): --set \(unknown.argument): no such parameter\(guess); \(takes)", isUsage: true)
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
