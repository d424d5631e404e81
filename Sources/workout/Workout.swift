import ArgumentParser

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
}
