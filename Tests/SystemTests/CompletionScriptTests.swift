import Foundation
import XCTest

/// The completion scripts the binary generates, each in its real shell (bash, zsh, fish)
/// in tmux, against file names and parameter defaults written to run code: pressing Tab
/// must run nothing, and the name still completes to a word the shell reads as itself.
final class CompletionScriptTests: XCTestCase {
    /// File names that run `touch PWNED` in the shell's folder if a script expands them;
    /// each in its own folder, so that it is the only completion there.
    static let hostileNames = ["$(touch PWNED).lua", "`touch PWNED`.lua", "a;touch PWNED;.lua",
                               "it's \"quoted\" & spaced.lua", "$HOME and ~.lua", "colon:name.lua"]

    /// A routine of the user's whose defaults run `touch PWNED` if expanded, and one whose
    /// name does.
    static let hostileRoutine = """
        local p = params { level = "$(touch${IFS}PWNED)", tick = "`touch PWNED`", zone = "a b;c", words = "two words" }
        return workout { name = "Hostile", work(1) }
        """

    struct Setup {
        var root: URL
        var work: URL { root.appendingPathComponent("work") }
        var scripts: URL { root.appendingPathComponent("scripts") }

        /// Every file named PWNED under the root: what an expanded name would make.
        var pwned: [String] {
            let entries = FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []
            return entries.filter { ($0 as NSString).lastPathComponent == "PWNED" }
        }

        /// A shell with nothing but this home, PATH (the binary under test first) and a
        /// terminal, in the folder of hostile names.
        func shell(_ command: [String]) -> [String] {
            let bin = (WorkoutBinary.binary as NSString).deletingLastPathComponent
            return ["env", "-i", "HOME=\(root.path)", "PATH=\(bin):/usr/bin:/bin", "TERM=screen", "LANG=C.UTF-8",
                    "XDG_CONFIG_HOME=\(root.appendingPathComponent("config").path)",
                    "PULSE_SERVER=unix:/nonexistent/workout-test-sound", "PS1=$ ", "HISTFILE=/dev/null"] + command
        }
    }

    func makeSetup() throws -> Setup {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("workout-completion-\(UUID().uuidString)")
        let setup = Setup(root: root)
        let programs = root.appendingPathComponent("config/workout/programs")
        for folder in [setup.work, setup.scripts, programs] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        for (index, name) in Self.hostileNames.enumerated() {
            let folder = setup.work.appendingPathComponent("\(index)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try "return workout { name = \"x\", work(1) }\n".write(to: folder.appendingPathComponent(name),
                                                                   atomically: false, encoding: .utf8)
        }
        try Self.hostileRoutine.write(to: programs.appendingPathComponent("hostile.lua"), atomically: false, encoding: .utf8)
        try Self.hostileRoutine.write(to: programs.appendingPathComponent("zz$(touch${IFS}PWNED).lua"), atomically: false,
                                      encoding: .utf8)
        for (shell, file) in [("bash", "workout.bash"), ("zsh", "_workout"), ("fish", "workout.fish")] {
            let script = try WorkoutBinary.run(["--generate-completion-script", shell])
            XCTAssertEqual(script.status, 0, script.stderr)
            try script.stdout.write(to: setup.scripts.appendingPathComponent(file), atomically: false, encoding: .utf8)
        }
        return setup
    }

    /// Types `line`, presses Tab and (when a completion is expected) waits for the line to
    /// change, then puts `printf '<%s>\n'` in front and runs it: the shell prints each word
    /// as it reads it, so the last one is the completed word as the command would get it
    /// (or the word as typed, when nothing is offered: the shell handles the keys after Tab
    /// only once the completion is done).
    func complete(_ pane: TmuxPane, _ setup: Setup, _ line: String, to word: String, offered: Bool = true,
                  file: StaticString = #filePath, lineNumber: UInt = #line) throws {
        try pane.send("C-l")
        try pane.tmux(["send-keys", "-t", "main", "-l", line])
        XCTAssertTrue(pane.wait { pane.text.contains(line) }, pane.text, file: file, line: lineNumber)
        let before = pane.text
        try pane.send("Tab")
        if offered {
            XCTAssertTrue(pane.wait { pane.text != before }, "\(line)⇥ completed nothing:\n\(pane.text)",
                          file: file, line: lineNumber)
        }
        try pane.send("C-a")
        try pane.tmux(["send-keys", "-t", "main", "-l", "printf '<%s>\\n' "])
        try pane.send("C-e")
        try pane.tmux(["send-keys", "-t", "main", "-l", "  # end"])
        try pane.send("Enter")
        let expected = "<\(word)>"
        XCTAssertTrue(pane.wait { pane.text.contains(expected) }, "\(line)⇥ did not give \(word):\n\(pane.text)",
                      file: file, line: lineNumber)
        XCTAssertEqual(setup.pwned, [], "\(line)⇥ ran code", file: file, line: lineNumber)
    }

    /// `quotesEveryWord`: whether the shell quotes a completed word that is not a file in
    /// full (bash does not, so there such words are not offered).
    func check(_ shell: [String], quotesEveryWord: Bool = true, prepare: (TmuxPane, Setup) throws -> Void) throws {
        let setup = try makeSetup()
        defer { try? FileManager.default.removeItem(at: setup.root) }
        let pane = try TmuxPane(columns: 160, rows: 30, command: setup.shell(shell))
        // The shell is gone before its home is removed (it writes nothing there at exit).
        defer { _ = try? pane.tmux(["kill-server"]) }
        try prepare(pane, setup)
        try pane.type("cd '\(setup.work.path)' && echo ready")
        XCTAssertTrue(pane.wait { pane.text.contains("\nready") || pane.text.hasPrefix("ready") }, pane.text)
        for (index, name) in Self.hostileNames.enumerated() {
            try complete(pane, setup, "workout run \(index)/", to: "\(index)/\(name)")
        }
        let offered = quotesEveryWord
        try complete(pane, setup, "workout run hostile --set le", to: offered ? "level=$(touch${IFS}PWNED)" : "le",
                     offered: offered)
        try complete(pane, setup, "workout run hostile --set ti", to: offered ? "tick=`touch PWNED`" : "ti",
                     offered: offered)
        try complete(pane, setup, "workout plan hostile --set zo", to: offered ? "zone=a b;c" : "zo", offered: offered)
        try complete(pane, setup, "workout plan hostile --set wo", to: "words=two words")
        try complete(pane, setup, "workout run zz", to: offered ? "zz$(touch${IFS}PWNED)" : "zz", offered: offered)
        // Tab twice lists the candidates (in bash the one it offers completes): nothing runs either.
        try pane.send("C-l")
        try pane.tmux(["send-keys", "-t", "main", "-l", "workout run hostile --set "])
        try pane.send("Tab")
        try pane.send("Tab")
        XCTAssertTrue(pane.wait { pane.text.contains("two") && (!offered || pane.text.contains("tick=")) }, pane.text)
        XCTAssertEqual(setup.pwned, [], "listing ran code")
        try pane.send("C-u")
    }

    /// Bash as Debian sets it up (bash-completion), with the script sourced.
    func testBashCompletesHostileNamesAndDefaultsWithoutRunningThem() throws {
        try check(["bash", "--norc", "--noprofile", "-i"], quotesEveryWord: false) { pane, setup in
            try pane.type("source /usr/share/bash-completion/bash_completion")
            try pane.type("source '\(setup.scripts.appendingPathComponent("workout.bash").path)'")
        }
    }

    /// zsh with nothing but compinit and the script on its fpath.
    func testZshCompletesHostileNamesAndDefaultsWithoutRunningThem() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh") || FileManager.default.isExecutableFile(atPath: "/bin/zsh")
        else { throw Missing(program: "zsh") }
        try check(["zsh", "-f", "-i"]) { pane, setup in
            try pane.type("PS1='$ '; fpath=('\(setup.scripts.path)' $fpath); autoload -U compinit; compinit -u -d '\(setup.root.path)/zcompdump'")
        }
    }

    /// fish with no configuration but the script (and no history kept).
    func testFishCompletesHostileNamesAndDefaultsWithoutRunningThem() throws {
        try check(["fish", "--no-config", "--private"]) { pane, setup in
            try pane.type("source '\(setup.scripts.appendingPathComponent("workout.fish").path)'")
        }
    }
}
