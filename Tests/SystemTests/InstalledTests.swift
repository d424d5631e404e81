import Foundation
import XCTest

/// `make install PREFIX=$HOME/.local`, as a user without root installs it, into a fresh
/// home; then the installed binary, its man page and its completions used with nothing
/// but that home and a PATH (`env -i`), in real shells in tmux for the completions.
final class InstalledTests: XCTestCase {
    nonisolated(unsafe) static var home: URL?
    nonisolated(unsafe) static var installed: Spawned?

    override class func setUp() {
        home = try? Installation.temporaryDirectory("home")
        if let home {
            installed = try? Installation.make(["install-built", "PREFIX=\(home.path)/.local"])
        }
    }

    override class func tearDown() {
        if let home { try? FileManager.default.removeItem(at: home) }
    }

    /// The home, once the installation into it worked.
    func installedHome() throws -> URL {
        let installed = try XCTUnwrap(Self.installed, "make could not be run")
        guard installed.status == 0 else { throw Installation.Failed(what: "make install-built", output: installed.output) }
        return try XCTUnwrap(Self.home)
    }

    /// What a user's login gives: a home, and PATH with the installation's bin first.
    func environment(_ home: URL) -> [String: String] {
        ["HOME": home.path, "PATH": "\(home.path)/.local/bin:/usr/bin:/bin"]
    }

    func testTheInstalledBinaryRunsABundledRoutineWithAnEmptyEnvironment() throws {
        let home = try installedHome()
        let run = try Installation.clean(["workout", "run", "tabata", "--dry-run", "--json"], environment(home))
        XCTAssertEqual(run.status, 0, run.output)
        let lines = run.output.split(separator: "\n")
        XCTAssertTrue(lines.first?.contains(#""event":"workout_start","t":0,"name":"Tabata""#) == true, run.output)
        XCTAssertTrue(lines.last?.contains(#""completed":true"#) == true, run.output)

        let version = try Installation.clean(["workout", "--version"], environment(home))
        XCTAssertEqual(version.status, 0)
        XCTAssertEqual(version.output, try Installation.version + "\n")

        let list = try Installation.clean(["workout", "list"], environment(home))
        XCTAssertEqual(list.status, 0, list.output)
        XCTAssertTrue(list.output.contains("Bundled programs"), list.output)
        XCTAssertTrue(list.output.contains("  couch-to-5k "), list.output)
        XCTAssertFalse(list.output.contains("missing"), list.output)
    }

    func testTheInstallationHoldsTheEditorFilesBesideTheRoutines() throws {
        let programs = try installedHome().appendingPathComponent(".local/share/workout/programs")
        for (installed, original) in [("types/workout.lua", "programs/types/workout.lua"),
                                      (".luarc.json", "programs/.luarc.json"), (".luacheckrc", ".luacheckrc"),
                                      ("hiit.lua", "programs/hiit.lua")] {
            XCTAssertEqual(FileManager.default.contents(atPath: programs.appendingPathComponent(installed).path),
                           FileManager.default.contents(atPath: packageRoot.appendingPathComponent(original).path),
                           installed)
        }
    }

    func testABinaryCopiedAloneSaysWhereItLookedForTheBundledPrograms() throws {
        let home = try installedHome()
        let alone = home.appendingPathComponent("alone/bin")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: home.appendingPathComponent(".local/bin/workout"),
                                         to: alone.appendingPathComponent("workout"))
        let run = try Installation.clean([alone.appendingPathComponent("workout").path, "run", "tabata"],
                                         environment(home))
        XCTAssertEqual(run.status, 1, run.output)
        XCTAssertTrue(run.output.hasPrefix("workout: tabata: no such routine (looked for a file, then in "), run.output)
        XCTAssertTrue(run.output.contains("/.config/workout/programs); the bundled programs are missing: neither "
                                          + "\(home.path)/alone/share/workout/programs nor "
                                          + "\(alone.path)/workout_workout.resources/programs exists"), run.output)
    }

    func testTheManPageIsFoundFromPATHAndRenders() throws {
        let home = try installedHome()
        let page = home.appendingPathComponent(".local/share/man/man1/workout.1.gz").path
        let found = try Installation.clean(["man", "-w", "workout"], environment(home))
        XCTAssertEqual(found.output, page + "\n")
        for arguments in [["man", "-l", page], ["man", "workout"]] {
            let rendered = try Installation.clean(arguments, environment(home).merging(["MANWIDTH": "80"]) { $1 })
            XCTAssertEqual(rendered.status, 0, rendered.output)
            for text in ["NAME", "SYNOPSIS", "An interval workout timer for the terminal", "--dry-run", "--version",
                         "history"] {
                XCTAssertTrue(rendered.output.contains(text), "\(arguments) lacks \(text): \(rendered.output)")
            }
        }
    }

    /// Bash as Debian's login shell sets it up (bash-completion), which finds the script
    /// in ~/.local/share/bash-completion/completions by itself.
    func testBashCompletesRoutinesAndTheirParameters() throws {
        let home = try installedHome()
        let pane = try TmuxPane(columns: 120, rows: 20, command: shell(home, ["PS1=$ ", "bash", "--norc", "--noprofile", "-i"]))
        try pane.type("source /usr/share/bash-completion/bash_completion")
        try complete(pane, "workout run ta", "$ workout run tabata")
        // Bash's script completes with `-o filenames`, so readline escapes the `=`; the
        // shell takes `rounds\=8` as `rounds=8`.
        try complete(pane, "workout run tabata --set rou", "$ workout run tabata --set rounds\\=8")
        try complete(pane, "workout new mine --from box", "$ workout new mine --from boxing")
        try complete(pane, "workout check hiit sev", "$ workout check hiit seven-minute")
    }

    /// fish finds the script in ~/.local/share/fish/vendor_completions.d by itself.
    func testFishCompletesRoutinesAndTheirParameters() throws {
        let home = try installedHome()
        let pane = try TmuxPane(columns: 120, rows: 20, command: shell(home, ["fish"]))
        XCTAssertTrue(pane.wait { pane.text.contains("#") || pane.text.contains(">") }, pane.text)
        try complete(pane, "workout run ta", "workout run tabata")
        try complete(pane, "workout plan couch-to-5k --set we", "workout plan couch-to-5k --set week=1")
    }

    func testUninstallLeavesNothingBehind() throws {
        let prefix = try Installation.temporaryDirectory("prefix")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let install = try Installation.make(["install-built", "PREFIX=\(prefix.path)"])
        XCTAssertEqual(install.status, 0, install.output)
        XCTAssertTrue(Installation.tree(prefix).contains("share/workout/programs/tabata.lua"))
        let uninstall = try Installation.make(["uninstall", "PREFIX=\(prefix.path)"])
        XCTAssertEqual(uninstall.status, 0, uninstall.output)
        // The folders every prefix has stay, empty; everything of workout's is gone.
        XCTAssertEqual(Installation.tree(prefix), ["bin", "share", "share/man", "share/man/man1"])
    }

    /// A shell in a pane with only a home, PATH and a terminal.
    private func shell(_ home: URL, _ command: [String]) -> [String] {
        ["env", "-i", "HOME=\(home.path)", "PATH=\(home.path)/.local/bin:/usr/bin:/bin", "TERM=screen",
         "LANG=C.UTF-8"] + command
    }

    /// Types `line`, presses Tab, waits for the screen to show `completed` (capture-pane
    /// drops a line's trailing spaces), then clears the line and the screen.
    private func complete(_ pane: TmuxPane, _ line: String, _ completed: String,
                          file: StaticString = #filePath, lineNumber: UInt = #line) throws {
        try pane.tmux(["send-keys", "-t", "main", "-l", line])
        try pane.send("Tab")
        XCTAssertTrue(pane.wait { pane.text.contains(completed) }, "\(line)⇥ gave:\n\(pane.text)",
                      file: file, line: lineNumber)
        try pane.send("C-u")
        try pane.send("C-l")
        _ = pane.wait { !pane.text.contains(completed) }
    }
}
