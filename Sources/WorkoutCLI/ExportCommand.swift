import ArgumentParser
import IntervalEngine

/// `workout export ROUTINE --format zwo|icu`: the routine's timeline as a Zwift workout
/// file or intervals.icu workout text, on standard output. Repeats are found again
/// (`IntervalsT`, `Nx`), targets read back from each segment's `info`, text cues written
/// as text events; whatever the format cannot hold is named in a warning on standard error.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a routine as a Zwift .zwo file or intervals.icu workout text.",
        discussion: """
            The routine runs with its parameters' defaults, or the --set values. An open-ended \
            routine (one with generate) cannot be exported: exit status 1. What the format \
            cannot hold (hooks, cue functions, info fields that are not targets) is named in a \
            warning on standard error.
            """)

    @Argument(help: "The routine: a path, or a name such as 'hiit'.", completion: .routine)
    var routine: String

    @OptionGroup var parameters: ParameterOptions

    @Option(help: ArgumentHelp("zwo (Zwift) or icu (intervals.icu workout text).", valueName: "format"))
    var format: WorkoutFormat

    @OptionGroup(title: "Limits")
    var limits: LimitOptions

    func run() throws {
        let loaded = try RoutineLookup.loadOrFail(routine, settings: parameters.settings, limits: limits.limits)
        let file: WorkoutFile
        var dropped: [String]
        do throws(RoutineError) {
            (file, dropped) = try RoutineExport.workoutFile(loaded)
        } catch {
            Output.error("workout: \(error.message)")
            throw ExitCode.failure
        }
        // What import would refuse is not written: an export always imports again.
        let problems = WorkoutFileRules.problems(file)
        guard problems.isEmpty else {
            for (line, message) in problems {
                Output.error(VisibleText.escape("workout: \(loaded.fileName):\(line): \(message); "
                                                + "workout import would refuse it, so nothing was exported"))
            }
            throw ExitCode.failure
        }
        let (text, unwritten) = switch format {
        case .zwo: ZwiftWriter.text(file)
        case .icu: IntervalsWriter.text(file)
        }
        dropped += unwritten
        Output.write(text)
        let what = format == .zwo ? "a Zwift workout" : "intervals.icu text"
        for note in dropped {
            Output.error(VisibleText.escape("workout: warning: \(loaded.fileName): not in \(what): \(note)"))
        }
    }
}
