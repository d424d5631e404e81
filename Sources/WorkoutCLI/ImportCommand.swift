import ArgumentParser
import Foundation
import Interchange
import IntervalEngine
import LuaBridge
import Platform
import WorkoutValues

extension WorkoutFormat: ExpressibleByArgument {}

/// `workout import FILE`: a Zwift `.zwo`, intervals.icu workout text, a FIT workout file or an `.erg`/`.mrc` course as a commented Lua
/// routine in the user's programs directory (or on standard output). The routine is
/// loaded before it is written, so what lands in the directory always passes `check`;
/// a file that cannot be read writes nothing, and an existing routine is never replaced.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn a Zwift .zwo file, intervals.icu workout text, a FIT workout or an .erg/.mrc course into a routine.",
        discussion: """
            The routine goes to $XDG_CONFIG_HOME/workout/programs/NAME.lua (default \
            ~/.config/workout/programs); an existing routine is never overwritten. The format \
            comes from the extension (.zwo, .txt, .fit, .erg, .mrc) unless --format says it. Targets (power, \
            heart rate, pace, cadence) go into each segment's info and show on screen as it starts.
            """)

    @Argument(help: "The workout file: a .zwo, a .txt of intervals.icu workout text, a .fit workout, an .erg or .mrc course.",
              completion: .file(extensions: ["zwo", "txt", "fit", "erg", "mrc"]))
    var file: String

    @Option(help: ArgumentHelp("The routine's name (default: the file's), then `workout run NAME`.", valueName: "name"))
    var name: String?

    @Option(help: ArgumentHelp("zwo, icu, fit, erg or mrc, when the extension does not say.", valueName: "format"))
    var format: WorkoutFormat?

    @Flag(help: "Print the routine instead of writing it to your programs directory.")
    var stdout = false

    func validate() throws {
        if let name { try New.checkName(Import.baseName(name), given: name) }
        _ = try chosenFormat()
    }

    /// `--format`, else the one the file's extension names.
    private func chosenFormat() throws -> WorkoutFormat {
        guard let format = format ?? WorkoutFormat(pathExtension: (file as NSString).pathExtension) else {
            throw ValidationError("cannot tell the format of '\(VisibleText.escape(file))' from its extension; add --format zwo, icu, fit, erg or mrc")
        }
        return format
    }

    static func baseName(_ name: String) -> String { name.hasSuffix(".lua") ? String(name.dropLast(4)) : name }

    /// `Sweet Spot 3x10.zwo` → `sweet-spot-3x10`.
    static func routineName(from file: String) -> String {
        let stem = ((file as NSString).lastPathComponent as NSString).deletingPathExtension.lowercased()
        var name = ""
        for character in stem {
            if character.isLetter || character.isNumber || character == "_" {
                name.append(character)
            } else if !name.isEmpty && name.last != "-" {
                name.append("-")
            }
        }
        while name.hasSuffix("-") { name.removeLast() }
        return name.isEmpty ? "imported" : name
    }

    func run() throws {
        let shown = VisibleText.escape(file)
        let data: [UInt8]
        do throws(BoundedFile.Problem) {
            // Checked by its size before it is read: a workout file is small.
            data = try BoundedFile.read(file, maximumSize: WorkoutFileRules.maximumSize)
        } catch .missing {
            Output.error("workout: \(shown): cannot read the file")
            throw ExitCode.failure
        } catch {
            Output.error("workout: \(shown): \(error.explanation(what: "a workout file"))")
            throw ExitCode.failure
        }
        let format = try chosenFormat()
        let source = (file as NSString).lastPathComponent
        let workout: WorkoutFile
        do throws(WorkoutFileError) {
            let (read, warnings) = try format.codec.read(data, file: source)
            for warning in warnings { Output.error("workout: warning: \(warning)") }
            workout = read
        } catch {
            Output.error("workout: \(error)")
            throw ExitCode.failure
        }
        let routineName = name.map(Import.baseName) ?? Import.routineName(from: file)
        let text = ImportedRoutine.text(workout, routineName: routineName, source: source, format: format)
        let routine: Routine
        do {
            routine = try RoutineLoader.load(source: text, fileName: routineName + ".lua")
        } catch {
            Output.error("workout: the routine made from \(shown) does not load: \(error.message)")
            throw ExitCode.failure
        }
        if stdout {
            Output.write(text)
            return
        }
        try write(text, name: routineName, routine: routine, shown: shown, format: format)
    }

    private func write(_ text: String, name: String, routine: Routine, shown: String, format: WorkoutFormat) throws {
        let directory = RoutineLookup.userPrograms
        let target = (directory as NSString).appendingPathComponent(name + ".lua")
        do {
            try SavedFile.makeFolder(directory)
            try EditorFiles.create(path: target, contents: Array(text.utf8))
        } catch let error as EditorFiles.Failure {
            let exists = FileManager.default.fileExists(atPath: target)
            Output.error("workout: \(VisibleText.escape(error.message))\(exists ? " (or import with --name NAME)" : "")")
            throw ExitCode.failure
        } catch {
            Output.error("workout: cannot create \(error)")
            throw ExitCode.failure
        }
        if case .failure(let error) = Result(catching: { try EditorFiles.write(into: directory) }) {
            Output.error("workout: warning: could not write the editor files: \(error)")
        }
        Output.line("Created \(VisibleText.escape(target)) from \(shown) (\(format.codec.title)): \(Plan.size(routine.timeline)).")
        Output.line("Try it:  workout plan \(name)  ·  workout run \(name) --dry-run  ·  workout run \(name)")
    }
}
