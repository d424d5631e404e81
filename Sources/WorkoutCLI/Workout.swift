import ArgumentParser
import Foundation

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
        subcommands: [Run.self, Plan.self, Check.self, List.self, New.self, History.self, Definitions.self,
                      Import.self, Export.self]
    )
}

/// The command line, run by the two executables: `workout`, and `workout-serve`, which
/// is the same with the HTTP server of `run --serve` linked in. Linking the server costs
/// every command start-up time (docs/design.md, Serving), so plain `workout` leaves it
/// out and hands `run --serve` to its sibling with `exec`: same process, same terminal.
public enum WorkoutCommandLine {
    public static func main(serving starter: ServeStarter?) -> Never {
        // `--serve` may come without its address (`ServeOptions.expand`).
        let arguments = ServeOptions.expand(Array(CommandLine.arguments.dropFirst()))
        if starter == nil, ServeOptions.asksToServe(arguments) { Sibling.exec("workout-serve", arguments) }
        Serving.starter = starter
        Workout.main(arguments)
        exit(0)
    }
}
