import Foundation
import XCTest

/// A real terminal for the display tests: a private tmux server (its own socket, no
/// user config) running one command in one pane, driven by `send-keys` and read by
/// `capture-pane`.
final class TmuxPane {
    let socket = "workout-test-\(UUID().uuidString.prefix(8))"
    let directory: URL

    /// A fresh pane of `columns`×`rows` running an interactive bash with job control,
    /// as a user's terminal has (Ctrl-Z only stops a job under a job-control shell), or
    /// the `command` given.
    init(columns: Int = 80, rows: Int = 24,
         command: [String] = ["env", "LANG=C.UTF-8", "NO_COLOR=", "PS1=$ ", "bash", "--norc", "--noprofile", "-i"]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(socket)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // The first command starts the server, which would hold a captured stdout open.
        try tmux(printing: false, ["-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "\(columns)",
                                   "-y", "\(rows)", "-e", "PULSE_SERVER=\(TmuxPane.noSoundServer)"] + command)
    }

    /// From now on, everything the pane's programs write is appended to the file
    /// `output` in `directory`, escape sequences and all: what a capture might miss
    /// between two looks (a flash that comes and goes) is still there.
    func record() throws {
        try tmux(["pipe-pane", "-t", "main", "-o", "cat >> '\(directory.path)/output'"])
    }

    /// What the pane's programs wrote since `record()`.
    var output: String {
        (try? String(contentsOf: directory.appendingPathComponent("output"), encoding: .utf8)) ?? ""
    }

    /// Where the pane's programs look for a sound server: nowhere, so that the display
    /// tests hear nothing and see the bell (the sound tests start their own server).
    static let noSoundServer = "unix:/nonexistent/workout-test-sound"

    /// Types a command line and Enter.
    func type(_ line: String) throws {
        try tmux(["send-keys", "-t", "main", "-l", line])
        try tmux(["send-keys", "-t", "main", "Enter"])
    }

    /// A pane variable such as `alternate_on` or `cursor_flag`.
    func variable(_ name: String) -> String {
        ((try? tmux(["display-message", "-p", "-t", "main", "#{\(name)}"])) ?? "").trimmed
    }

    deinit {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs tmux on this pane's server and returns what it printed.
    @discardableResult
    func tmux(printing: Bool = true, _ arguments: [String]) throws -> String {
        guard let path = ["/usr/bin/tmux", "/bin/tmux", "/usr/local/bin/tmux"]
            .first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw Missing(program: "tmux")
        }
        return try spawn(path, ["-L", socket] + arguments, printing: printing).output
    }

    /// The screen with its colours and attributes as escape sequences.
    var styledText: String { (try? tmux(["capture-pane", "-e", "-p", "-t", "main"])) ?? "" }

    /// The screen as text, one string per row.
    var screen: [String] {
        ((try? tmux(["capture-pane", "-p", "-t", "main"])) ?? "").components(separatedBy: "\n")
    }

    var text: String { screen.joined(separator: "\n") }

    func send(_ keys: String...) throws {
        try tmux(["send-keys", "-t", "main"] + keys)
    }

    func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", "main", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// The pane's terminal device, to read its modes from outside.
    var tty: String { variable("pane_tty") }

    /// Polls until `condition` holds (true) or `timeout` passes (false).
    func wait(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
        eventually(timeout: timeout, every: 0.05, condition)
    }

    /// A file the command writes into this pane's directory, once it holds a complete
    /// line (the shell's `echo … > file` ends with a newline).
    func file(_ name: String, timeout: Double = 10) -> String? {
        let path = directory.appendingPathComponent(name).path
        var text: String?
        _ = wait(timeout: timeout) {
            text = try? String(contentsOfFile: path, encoding: .utf8)
            return text?.hasSuffix("\n") == true
        }
        return text?.trimmed
    }
}

/// A test tool that is not installed: a failure, not a skip (`make test` installs it).
struct Missing: Error, CustomStringConvertible {
    var program: String
    var description: String { "\(program) is not installed; run the tests with make test, which installs it" }
}

/// `stty -g` of a terminal device: its whole mode, to compare before and after.
func terminalModes(_ tty: String) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/stty")
    process.arguments = ["-g", "-F", tty]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try? process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmed
}

extension String {
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
