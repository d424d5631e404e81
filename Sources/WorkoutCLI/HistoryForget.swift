import Activity
import ArgumentParser
import Display
import Foundation
import History
import IntervalEngine

/// `workout history forget [N]`: takes the Nth latest session out of the history, after
/// showing it and, on a terminal, asking.
struct HistoryForget: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Remove the Nth latest session (default the latest) from the history.",
        discussion: """
            Shows the session first and asks on a terminal; elsewhere --yes is needed. Its \
            activity file (the samples of its sensors), if it has one, is removed too. The \
            history is rewritten to a temporary file and renamed, holding the lock that \
            appends take, so a session ending meanwhile is not lost.
            """)

    @Argument(help: "Which session, counting back from the latest (1).")
    var number = 1

    @Flag(help: "Do not ask.")
    var yes = false

    func validate() throws {
        guard number >= 1 else { throw ValidationError("N must be 1 or more, got \(number)") }
    }

    func run() throws {
        let (file, contents) = try HistoryReading.read()
        guard number <= contents.entries.count else {
            Output.error("workout: the history has \(HistoryStatsPage.count(contents.entries.count, "session")), "
                         + "so there is no session \(number) to forget")
            throw ExitCode.failure
        }
        let position = contents.entries.count - number
        let entry = contents.entries[position]
        Output.line(HistoryText.session(entry, style: Style(enabled: Terminal.usesColor)))
        if !yes {
            guard Terminal.hasKeyboard && isatty(STDOUT_FILENO) == 1 else {
                Output.error("workout: not forgotten: add --yes to forget a session without being asked")
                throw ExitCode(64)
            }
            Output.write("Forget this session? [y/N] ")
            guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                Output.line("Kept.")
                return
            }
        }
        do {
            guard try file.remove(line: contents.lines[position], holding: entry) else {
                Output.error("workout: the history changed meanwhile; nothing was forgotten (run it again)")
                throw ExitCode.failure
            }
        } catch let failure as HistoryFile.Failure {
            Output.error("workout: \(failure)")
            throw ExitCode.failure
        }
        // Its samples go with it: nothing else names them.
        do {
            try ActivityFile.remove(of: entry, beside: file)
        } catch {
            Output.error("workout: \(error)")
            throw ExitCode.failure
        }
        Output.line("Forgotten.")
    }
}
