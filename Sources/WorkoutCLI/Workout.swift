import ArgumentParser
import Broker
import Foundation
import IntervalEngine
import Serving

/// Every command spells out its `commandName`: without it ArgumentParser derives the
/// name with `String(describing:)`, whose dynamic casts scan every protocol conformance
/// in the binary, a third of the start-up's instructions (BENCHMARKS.md).
struct Workout: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workout",
        abstract: "An interval workout timer for the terminal, with routines written in Lua.",
        discussion: """
            A routine is a Lua file that returns workout { ... }. ROUTINE is a path, or a name \
            looked up in $XDG_CONFIG_HOME/workout/programs, then among the bundled programs.
            """,
        version: Version.number,
        subcommands: [Run.self, Follow.self, Plan.self, Check.self, List.self, New.self, History.self, SoundCheck.self,
                      Definitions.self, Import.self, Export.self, Sensors.self, Today.self, Intervals.self, Week.self]
    )
}

/// The command line, run by the two executables: `workout`, and `workout-serve`, which
/// is the same with the HTTP server of `run --serve` linked in. Linking the server costs
/// every command start-up time (docs/design.md, Serving), so plain `workout` leaves it
/// out and hands `run --serve` to its sibling with `exec`: same process, same terminal.
public enum WorkoutCommandLine {
    public static func main(serving starter: ServeStarter?) -> Never {
        // The arguments as given, copied before a broker's password in them is hidden
        // from the process list, which comes before anything else (`CommandLinePasswords`).
        let given = Array(CommandLine.arguments.dropFirst())
        for argument in CommandLinePasswords.hide() { Output.error(CommandLinePasswords.warning(argument)) }
        // `--serve` may come without its address (`ServeOptions.expand`).
        let arguments = ServeOptions.expand(given)
        if starter == nil, ServeOptions.asksToServe(arguments) {
            Sibling.exec("workout-serve", CommandLinePasswords.handedOn(arguments))
        }
        // The password is read from the environment once (`Terminal.environment`), then
        // taken out of it, so that the run's children (speech, notifications) never inherit it.
        _ = Terminal.environment
        unsetenv(BrokerAddress.passwordVariable)
        exit(run(arguments, serving: starter))
    }

    /// ArgumentParser's own `main`, with four differences: the usual `run` lines are read
    /// by `QuickRunArguments`, without ArgumentParser's costly parse; its messages go through
    /// `Output.error`, which escapes them (they quote the user's arguments, which may
    /// hold escape sequences); SIGPIPE is ignored, so a reader that goes away is an
    /// error a command sees (EPIPE) rather than a sudden death; and a command whose
    /// output could not be written does not exit 0 (`Output.finish`).
    private static func run(_ arguments: [String], serving starter: ServeStarter?) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        var status: Int32
        do {
            if let request = QuickRunArguments.request(arguments) {
                try request.run(serving: starter)
            } else {
                var command = try Workout.parseAsRoot(arguments)
                if let run = command as? Run {
                    // The server's starter goes to the run as an argument, not a global.
                    try run.request.run(serving: starter)
                } else {
                    try command.run()
                }
            }
            status = 0
        } catch let exit as ExitCode {
            // How a command ends with a status (a run, always): nothing to say, and asking
            // ArgumentParser for the message would reflect the commands all the same.
            status = exit.rawValue
        } catch {
            status = Workout.exitCode(for: error).rawValue
            let message = Workout.fullMessage(for: error)
            if !message.isEmpty {
                if status == 0 { Output.line(message) } else { Output.error(message) }
            }
        }
        return Output.finish(status: status)
    }
}
