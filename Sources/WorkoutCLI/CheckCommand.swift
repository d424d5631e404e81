import ArgumentParser
import IntervalEngine
import Platform
import WorkoutValues

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Load routines and run them on a virtual clock, reporting errors and warnings.",
        discussion: """
            Each routine runs at once and silently, as run --dry-run does. Warnings (a sound file a hook \
            plays that the routine does not name; a power target in percent of FTP without an FTP) go \
            to standard error as `workout: warning: FILE:LINE: …`. Exit status 0 when every routine \
            loads and runs, warnings or not; 1 when any fails.
            """)

    @Argument(help: "Routines to check: paths or names.", completion: .routine)
    var routines: [String]

    @OptionGroup var parameters: ParameterOptions

    @OptionGroup(title: "History")
    var history: HistorySourceOptions

    @OptionGroup(title: "Limits")
    var limits: LimitOptions

    func validate() throws {
        if routines.isEmpty { throw ValidationError("name at least one routine to check") }
        if routines.contains(where: \.isEmpty) { throw ValidationError("the routine's name cannot be empty") }
    }

    func run() throws {
        var failures = 0
        var usage = false
        // The athlete file's ftp and max_hr, under the command line's --set, as `run` reads them.
        let settings: [ParameterSetting]
        do {
            settings = try AthleteFile(directories: UserDirectories(environment: Terminal.environment))
                .settings(under: parameters.settings)
        } catch {
            Output.error("workout: \(error.message)")
            throw ExitCode.failure
        }
        let ftp = (try? Athlete(settings: settings))?.ftp
        for name in routines {
            do throws(RoutineError) {
                let routine = try RoutineLookup.load(name, settings: settings, limits: limits.limits,
                                                     history: history.file, sounds: true)
                // A generator's mistakes show only when it runs: run it as `plan` does.
                if let error = routine.expand(horizon: Timeline.defaultHorizon).first {
                    throw RoutineError(error)
                }
                // A hook's show only while the workout runs: run it as a dry run does.
                let check = RoutineCheck.run(routine, ftp: ftp)
                for warning in check.warnings { Output.error("workout: warning: \(warning)") }
                if let (first, more) = DistanceWithoutSource.first(file: routine.fileName, in: routine.timeline),
                   (try? RememberedSensors(directories: UserDirectories(environment: Terminal.environment)).read())?.isEmpty ?? true {
                    Output.error("workout: warning: " + first.warning(more: more, why: "no sensor is remembered "
                        + "(workout sensors add ADDRESS)"))
                }
                if !check.errors.isEmpty {
                    throw RoutineError(check.errors.joined(separator: "\nworkout: "))
                }
                Output.line("ok  \(name.visible): \(routine.name.visible), \(Plan.size(routine.timeline))")
            } catch {
                failures += 1
                usage = usage || error.isUsage
                Output.error("workout: \(error.message)")
            }
        }
        if usage { throw ExitCode.validationFailure }
        if failures > 0 { throw ExitCode.failure }
    }
}
