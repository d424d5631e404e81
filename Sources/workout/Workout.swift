import ArgumentParser

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
        subcommands: [Run.self, Plan.self, Check.self, List.self, New.self, History.self, Definitions.self,
                      Import.self, Export.self]
    )
}
