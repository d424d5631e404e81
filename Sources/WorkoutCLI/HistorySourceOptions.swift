import ArgumentParser
import History
import IntervalEngine

/// `--no-history` and `--history-file PATH`, shared by `plan` and `check` (and read the
/// same way by `run`): which history a routine reads while it loads and in its hooks, so
/// that a plan shows what a run would do, or what it would do after a history of your
/// making.
struct HistorySourceOptions: ParsableArguments {
    @Flag(help: "Load the routine with an empty history (its `history` has no sessions).")
    var noHistory = false

    @Option(help: ArgumentHelp("Read the routine's history from PATH instead of $XDG_DATA_HOME/workout/history.jsonl.",
                               valueName: "PATH"))
    var historyFile: String?

    var file: HistoryFile? { HistorySourceOptions.file(noHistory: noHistory, path: historyFile) }

    /// Nil for none; the file given; else the user's history.
    static func file(noHistory: Bool, path: String?) -> HistoryFile? {
        if noHistory { return nil }
        if let path { return HistoryFile(path: path) }
        return HistoryFile(environment: Terminal.environment)
    }
}
