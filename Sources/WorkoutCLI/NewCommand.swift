import ArgumentParser
import Foundation
import IntervalEngine
import LuaBridge
import Platform
import WorkoutValues

/// `workout new NAME [--from ROUTINE]`: a starter routine, or a copy of one to change,
/// in the user's programs directory, with the editor files beside it. It never
/// overwrites: the file is created with O_EXCL, so even a race cannot clobber one.
struct New: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Write a commented starter routine (or a copy of one) to your programs directory.",
        discussion: """
            The routine goes to $XDG_CONFIG_HOME/workout/programs/NAME.lua (default \
            ~/.config/workout/programs), with editor support beside it: types/workout.lua \
            (definitions for lua-language-server), .luarc.json and .luacheckrc. An existing \
            routine is never overwritten.
            """)

    @Argument(help: "The new routine's name: letters, digits, - and _ (then `workout run NAME`).")
    var name: String

    @Option(help: ArgumentHelp("Copy this routine (a path, or a name such as 'tabata') instead of the starter.",
                               valueName: "routine"),
            completion: .routine)
    var from: String?

    /// `hiit.lua` is taken as `hiit`, the way `run` finds it.
    var baseName: String { name.hasSuffix(".lua") ? String(name.dropLast(4)) : name }

    func validate() throws {
        try New.checkName(baseName, given: name)
        if from?.isEmpty == true { throw ValidationError("--from needs a routine: a path, or a name such as 'tabata'") }
    }

    /// A routine's file name in the programs directory (`new`, `import --name`): a plain
    /// name, never a path.
    static func checkName(_ base: String, given: String) throws {
        guard let first = base.first, first != "-",
              base.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw ValidationError("NAME may hold letters, digits, - and _ (got '\(VisibleText.escape(given))')")
        }
    }

    func run() throws {
        let directory = RoutineLookup.userPrograms
        let target = (directory as NSString).appendingPathComponent(baseName + ".lua")
        var source: String?
        let text: [UInt8]
        if let from {
            do {
                source = try RoutineLookup.resolve(from)
            } catch {
                Output.error("workout: \(error.message)")
                throw ExitCode.failure
            }
            // A copy of something that is not a routine would only fail later.
            do {
                _ = try RoutineLoader.load(path: source!)
            } catch {
                Output.error("workout: --from \(from): not a routine that loads: \(error.message)")
                throw ExitCode.failure
            }
            do {
                text = try RoutineFile.read(source!)
            } catch {
                Output.error("workout: \(source!): \(error.explanation)")
                throw ExitCode.failure
            }
        } else {
            text = Array(StarterRoutine.text(name: baseName).utf8)
        }
        let shadowed = BundledPrograms.directory.map {
            FileManager.default.fileExists(atPath: ($0 as NSString).appendingPathComponent(baseName + ".lua"))
        } ?? false
        do {
            try SavedFile.makeFolder(directory)
            try EditorFiles.create(path: target, contents: text)
        } catch let error as EditorFiles.Failure {
            Output.error("workout: \(error.message)")
            throw ExitCode.failure
        } catch {
            Output.error("workout: cannot create \(error)")
            throw ExitCode.failure
        }
        let editorNote: String
        do {
            try EditorFiles.write(into: directory)
            editorNote = "Editor support beside it: types/workout.lua, .luarc.json, .luacheckrc."
        } catch {
            editorNote = "Could not write the editor files: \(error.message)"
        }
        let origin = from.map { " (a copy of \($0.visible))" } ?? ""
        Output.line("Created \(target.visible)\(origin).")
        if shadowed { Output.line("It takes the place of the bundled \(baseName) when you use the name \(baseName).") }
        Output.line(editorNote.visible)
        Output.line("Edit it, then try it:  workout check \(baseName)  ·  workout plan \(baseName)  ·  workout run \(baseName) --dry-run")
    }
}

/// The files `workout new` writes.
enum EditorFiles {
    struct Failure: Error {
        var message: String
    }

    /// Creates a file that must not exist yet; one it could not fill (a full disk) is
    /// removed again (`SavedFile.create`).
    static func create(path: String, contents: [UInt8]) throws(Failure) {
        do {
            try SavedFile.create(contents, at: path)
        } catch {
            if SavedFile.exists(error, path: path) {
                throw Failure(message: "\(path) already exists; edit it, or choose another name (workout new NAME)")
            }
            throw Failure(message: "cannot write \(error)")
        }
    }

    /// The LuaLS definitions are ours and follow this version of workout, so they are
    /// refreshed; `.luarc.json` and `.luacheckrc` are the user's once written.
    static func write(into directory: String) throws(Failure) {
        let types = (directory as NSString).appendingPathComponent("types")
        do throws(SavedFile.Failure) {
            try SavedFile.makeFolder(types)
            try SavedFile.write(Array(LuaLSDefinitions.text().utf8),
                                to: (types as NSString).appendingPathComponent("workout.lua"))
        } catch {
            throw Failure(message: "\(error)")
        }
        for (name, text) in [(".luarc.json", LuaLSDefinitions.luarc), (".luacheckrc", LuacheckConfig.text())] {
            let path = (directory as NSString).appendingPathComponent(name)
            do throws(Failure) {
                try create(path: path, contents: Array(text.utf8))
            } catch where FileManager.default.fileExists(atPath: path) {
                continue
            }
        }
    }
}
