import ArgumentParser
import Foundation
import Interchange
import IntervalEngine
import Platform
import WorkoutValues

extension FITWorkoutWriter.Sport: ExpressibleByArgument {}

/// `workout export ROUTINE --format zwo|icu|fit|erg|mrc`: the routine's timeline as a Zwift
/// workout file, intervals.icu workout text, a FIT workout file for a Garmin or a trainer
/// course (GoldenCheetah, TrainerRoad, Wahoo), on
/// standard output or into `-o FILE`. Repeats are found again (`IntervalsT`, `Nx`, FIT
/// repeat steps), targets read back from each segment's `info`, text cues written as text
/// events (FIT: as the step's notes); whatever the format cannot hold is named in a
/// warning on standard error. A FIT file is binary: it never goes to a terminal.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a routine as a Zwift .zwo file, intervals.icu workout text, a FIT workout or an .erg/.mrc course.",
        discussion: """
            The routine runs with its parameters' defaults, or the --set values. An open-ended \
            routine (one with generate) cannot be exported: exit status 1. What the format \
            cannot hold (hooks, cue functions, info fields that are not targets) is named in a \
            warning on standard error. A FIT workout goes to -o FILE, or to standard output \
            when that is not a terminal; copy it into GARMIN/NewFiles on a Garmin.
            """)

    @Argument(help: "The routine: a path, or a name such as 'hiit'.", completion: .routine)
    var routine: String

    @OptionGroup var parameters: ParameterOptions

    @Option(help: ArgumentHelp("zwo (Zwift), icu (intervals.icu workout text), fit (a FIT workout file), erg or mrc (trainer courses in watts or percent of FTP).",
                               valueName: "format"))
    var format: WorkoutFormat

    @Option(name: [.short, .long], help: ArgumentHelp("The file to write (default, or -: standard output).", valueName: "file"),
            completion: .file())
    var output: String?

    @Option(help: ArgumentHelp("For fit: cycling, running, rowing, training or generic (default: cycling for power or cadence targets, rowing for a split, running for pace or distance steps, else training).",
                               valueName: "sport"))
    var sport: FITWorkoutWriter.Sport?

    @Option(help: ArgumentHelp("For erg and mrc: your FTP in watts, to write percent of FTP as watts (erg) or watts as percent (mrc).",
                               valueName: "watts"))
    var ftp: Double?

    @OptionGroup(title: "Limits")
    var limits: LimitOptions

    func validate() throws {
        if sport != nil && format != .fit { throw ValidationError("--sport is for --format fit") }
        if let ftp {
            guard format == .erg || format == .mrc else { throw ValidationError("--ftp is for --format erg and mrc") }
            guard ftp.isFinite, (1...5000).contains(ftp) else { throw ValidationError("--ftp: expected watts, 1 to 5000") }
        }
    }

    func run() throws {
        let loaded = try RoutineLookup.loadOrFail(routine, settings: parameters.settings, limits: limits.limits)
        let file: WorkoutFile
        var dropped: [String]
        do throws(RoutineError) {
            (file, dropped) = try RoutineExport.workoutFile(loaded, for: format)
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
        let toFile = output.map { $0 != "-" } ?? false
        if format.codec.isBinary && !toFile && isatty(STDOUT_FILENO) == 1 {
            Output.error("workout: a FIT file is binary: give -o FILE, or send standard output to a file")
            throw ExitCode.failure
        }
        let codec = format.codec
        let bytes: [UInt8]
        let unwritten: [String]
        do throws(WorkoutExportProblem) {
            (bytes, unwritten) = try codec.write(file, options: ExportOptions(sport: sport, ftp: ftp))
        } catch {
            Output.error("workout: \(loaded.fileName): \(error)")
            throw ExitCode.failure
        }
        // Nor a file past what import reads: the size is known only once written.
        guard bytes.count <= WorkoutFileRules.maximumSize else {
            Output.error(VisibleText.escape("workout: \(loaded.fileName): as \(codec.exportedAs) it would be "
                                            + "\(Number.format(Number.rounded(Double(bytes.count) / 1_048_576, places: 1))) MiB, more than workout import "
                                            + "reads (\(WorkoutFileRules.maximumSize / 1_048_576) MiB), so nothing was exported"))
            throw ExitCode.failure
        }
        dropped += unwritten
        for note in dropped {
            Output.error(VisibleText.escape("workout: warning: \(loaded.fileName): not in \(codec.exportedAs): \(note)"))
        }
        guard let output, toFile else {
            Output.write(bytes)
            return
        }
        // SavedFile, not Foundation's atomic write: that leaves an empty folder in /tmp for
        // every file it writes.
        do throws(SavedFile.Failure) {
            try SavedFile.write(bytes, to: output)
        } catch {
            Output.error("workout: cannot write \(error)")
            throw ExitCode.failure
        }
    }
}
