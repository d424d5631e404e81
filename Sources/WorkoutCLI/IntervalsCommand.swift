import ArgumentParser
import Foundation
import IntervalsICU
import Platform
import WorkoutValues

struct Intervals: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "intervals",
        abstract: "Connect workout to your intervals.icu calendar.",
        subcommands: [IntervalsLogin.self, IntervalsSync.self])
}

struct IntervalsSync: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Send the sessions that wait for intervals.icu (the service was unreachable or busy).",
        discussion: """
            A session of the calendar (`workout run today`) waits in \
            $XDG_STATE_HOME/workout/intervals-uploads until the service has it; the next run \
            sends what waits too. A session the service already has (409) is not sent again. \
            Exit status 1 while any still waits.
            """)

    func run() throws {
        let queue = UploadQueue(UserDirectories(environment: Terminal.environment))
        guard !queue.waiting().isEmpty else {
            Output.line("Nothing waits to go to intervals.icu.")
            return
        }
        if !CalendarSync.send(queue) { throw ExitCode.failure }
    }
}

struct IntervalsLogin: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Keep your intervals.icu API key, read from the terminal, in a file only you can read.",
        discussion: """
            The key is on intervals.icu under Settings → Developer Settings. It is typed without \
            echo (or read from standard input, when that is not a terminal), checked with the \
            service, and kept in $XDG_CONFIG_HOME/workout/intervals-icu-key, mode 0600. It is \
            never an argument: every user of the machine can read those. \
            $INTERVALS_ICU_API_KEY, when set, goes before the file.
            """)

    func run() throws {
        guard let typed = Self.readKey(prompt: "intervals.icu API key (Settings → Developer Settings): ") else {
            Output.error("workout: no key was given")
            throw ExitCode.failure
        }
        guard let secret = IntervalsKey.checked(typed) else {
            Output.error("workout: that is not an API key (one line of letters and digits)")
            throw ExitCode.failure
        }
        let directories = UserDirectories(environment: Terminal.environment)
        let key = IntervalsKey(secret: secret, source: "the key typed")
        let service = try PlannedToday.fail { () throws(IntervalsProblem) in
            try IntervalsService(key: key, environment: Terminal.environment)
        }
        var checked = ""
        do throws(IntervalsProblem) {
            checked = try service.athleteName().map { " (the athlete \($0.visible))" } ?? ""
        } catch where !problemIsTheKey(error) {
            Output.error("workout: could not check the key: \(error.message)")
        } catch {
            Output.error("workout: \(error.message)")
            throw ExitCode.failure
        }
        try PlannedToday.fail { () throws(IntervalsProblem) in try IntervalsKey.save(secret, directories) }
        Output.line("Kept the key\(checked) in \(IntervalsKey.file(directories).visible).")
    }

    private func problemIsTheKey(_ problem: IntervalsProblem) -> Bool {
        problem.status == 401 || problem.status == 403
    }

    /// One line from standard input: typed without echo on a terminal (the prompt on
    /// standard error), else read as it comes (`pass show icu | workout intervals login`).
    static func readKey(prompt: String) -> String? {
        let terminal = isatty(STDIN_FILENO) == 1
        var saved = termios()
        if terminal {
            FileHandle.standardError.write(Data(prompt.utf8))
            tcgetattr(STDIN_FILENO, &saved)
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        }
        defer {
            if terminal {
                tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
                FileHandle.standardError.write(Data("\n".utf8))
            }
        }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.count < 4096 {
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1, byte != UInt8(ascii: "\n") else { break }
            line.append(byte)
        }
        return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
    }
}
