import ArgumentParser
import Foundation
import IntervalEngine

/// Every command spells out its `commandName`: without it ArgumentParser derives the
/// name with `String(describing:)`, whose dynamic casts scan every protocol conformance
/// in the binary, a third of the start-up's instructions (BENCHMARKS.md).
@main
struct Workout: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workout",
        abstract: "An interval workout timer for the terminal, with routines written in Lua.",
        discussion: """
            A routine is a Lua file that returns workout { ... }. ROUTINE is a path, or a name \
            looked up in $XDG_CONFIG_HOME/workout/programs, then among the bundled programs.
            """,
        subcommands: [Run.self, Plan.self, Check.self, List.self, New.self, History.self, Definitions.self]
    )

    /// ArgumentParser's own `main`, with three differences: its messages go through
    /// `Output.error`, which escapes them (they quote the user's arguments, which may
    /// hold escape sequences); SIGPIPE is ignored, so a reader that goes away is an
    /// error a command sees (EPIPE) rather than a sudden death; and a command whose
    /// output could not be written does not exit 0 (`Output.finish`).
    static func main() {
        signal(SIGPIPE, SIG_IGN)
        var status: Int32
        do {
            var command = try parseAsRoot()
            try command.run()
            status = 0
        } catch {
            status = exitCode(for: error).rawValue
            let message = fullMessage(for: error)
            if !message.isEmpty {
                if status == 0 { Output.line(message) } else { Output.error(message) }
            }
        }
        Glibc.exit(Output.finish(status: status))
    }
}
