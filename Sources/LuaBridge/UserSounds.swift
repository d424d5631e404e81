import CLua
import Foundation
import IntervalEngine
import Platform
import SoundFiles

/// The user's own sounds for every routine: `$XDG_CONFIG_HOME/workout/sounds.lua`, a Lua
/// file that calls `sounds { rest = "gong.ogg", finish = { file = "applause.flac", volume = 0.8 } }`
/// with the same keys and values as a routine's `sounds`. Its files are found in the
/// user's sounds folder only (`$XDG_CONFIG_HOME/workout/sounds`). A routine's own `sounds`
/// is laid over these, key by key, so the routine wins.
public enum UserSounds {
    /// The file's path: `$XDG_CONFIG_HOME/workout/sounds.lua`.
    public static func path(_ directories: UserDirectories) -> String {
        directories.config("sounds.lua")
    }

    /// The standard sounds under the user's, or the standard ones where there is no file.
    /// A file that does not load is an error naming it and its line.
    static func scheme(_ directories: UserDirectories) throws(RoutineError) -> SoundScheme {
        let path = path(directories)
        let source: [UInt8]
        do {
            source = try RoutineFile.read(path)
        } catch {
            if case .missing = error { return .standard }
            throw RoutineError("\(path): \(error.explanation)")
        }
        let lua = LuaState(chunkName: path)
        lua.routineSoundFiles = RoutineSoundFiles(reading: .decoded(directories), folders: SoundFolders(folders: [directories.sounds]))
        lua.setGlobal("sounds", define)
        do {
            try lua.run(source: source, results: 0)
        } catch {
            throw RoutineError(RoutineLoader.located(error.message, in: path))
        }
        return lua.defaultSounds
    }

    /// `sounds { … }`: sets the defaults.
    private static let define: workout_SwiftFunction = { L in
        APIError.entry(L) { stack, state throws(APIError) in
            let args = Arguments(stack: stack, state: state, function: "sounds")
            state.defaultSounds = try args.soundScheme(at: 1)
            try args.noArguments(after: 1)
            return 0
        }
    }
}
