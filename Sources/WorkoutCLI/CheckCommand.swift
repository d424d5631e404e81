import ArgumentParser
import IntervalEngine

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Load routines and report errors, without running them.",
        discussion: "Exit status 0 when every routine loads, 1 when any fails.")

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
        for name in routines {
            do throws(RoutineError) {
                let routine = try RoutineLookup.load(name, settings: parameters.settings, limits: limits.limits,
                                                     history: history.file, sounds: true)
                // A generator's mistakes show only when it runs: run it as `plan` does.
                if let error = routine.expand(horizon: Timeline.defaultHorizon).first {
                    throw RoutineError(error)
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
