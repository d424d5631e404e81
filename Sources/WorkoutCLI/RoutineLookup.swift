import ArgumentParser
import Foundation
import History
import IntervalEngine
import LuaBridge
import Platform

/// Finds a routine: a path as given, else `NAME` or `NAME.lua` in the user's programs
/// (`$XDG_CONFIG_HOME/workout/programs`), else among the bundled programs.
enum RoutineLookup {
    /// `$XDG_CONFIG_HOME/workout/programs`, found as the history is (`UserDirectories`).
    static var userPrograms: String { UserDirectories(environment: Terminal.environment).programs }

    /// The name a routine file goes by: `tabata` for `…/tabata.lua`.
    static func name(of path: String) -> String {
        ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    static func resolve(_ routine: String) throws(RoutineError) -> String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: routine, isDirectory: &isDirectory), !isDirectory.boolValue {
            return routine
        }
        let looksLikePath = routine.contains("/")
        if !looksLikePath {
            for directory in [userPrograms, BundledPrograms.directory].compactMap({ $0 }) {
                for name in [routine, routine + ".lua"] {
                    let candidate = (directory as NSString).appendingPathComponent(name)
                    if FileManager.default.fileExists(atPath: candidate) { return candidate }
                }
            }
        }
        if looksLikePath { throw RoutineError("\(routine): no such routine file") }
        guard let bundled = BundledPrograms.directory else {
            throw RoutineError("\(routine): no such routine (looked for a file, then in \(userPrograms)); "
                               + BundledPrograms.missing)
        }
        let names = all().map { name(of: $0.path) }
        let guess = Parameter.suggestion(for: routine, among: names)
        throw RoutineError("\(routine): no such routine\(guess); looked for a file, then in \(userPrograms), then in "
                           + "\(bundled) (`workout list` shows them)")
    }

    /// `history`: what the routine's `history` reads (nil: nothing). `sounds`: its sound
    /// files are found and decoded, with the user's default sounds (`run`, `check`,
    /// `sound-check`); other commands read none.
    static func load(_ routine: String, settings: [ParameterSetting] = [], limits: LuaLimits = LuaLimits(),
                     history: HistoryFile? = nil, sounds: Bool = false) throws(RoutineError) -> Routine {
        try RoutineLoader.load(path: resolve(routine), settings: settings, limits: limits, history: history,
                               soundFiles: sounds ? .decoded(UserDirectories(environment: Terminal.environment)) : .skipped)
    }

    /// For commands: a routine that does not load is reported on standard error and
    /// ends the command with exit status 1 (64 for a `--set` it cannot take).
    static func loadOrFail(_ routine: String, settings: [ParameterSetting] = [],
                           limits: LuaLimits = LuaLimits(), history: HistoryFile? = nil,
                           sounds: Bool = false) throws -> Routine {
        do {
            return try load(routine, settings: settings, limits: limits, history: history, sounds: sounds)
        } catch {
            Output.error("workout: \(error.message)")
            throw error.isUsage ? ExitCode.validationFailure : ExitCode.failure
        }
    }

    /// Every routine file in the user's and the bundled directories, user's first.
    static func all() -> [(source: String, path: String)] {
        var found: [(String, String)] = []
        for (source, directory) in [("user", userPrograms), ("bundled", BundledPrograms.directory)] {
            guard let directory,
                  let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            for name in names.sorted() where name.hasSuffix(".lua") {
                found.append((source, (directory as NSString).appendingPathComponent(name)))
            }
        }
        return found
    }
}
