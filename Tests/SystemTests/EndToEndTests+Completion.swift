import Foundation
import XCTest

/// What the completion scripts get back when they call the binary at a Tab
/// (`workout ---completion SUBCOMMAND -- ARGUMENT INDEX CURSOR WORDS…`, ArgumentParser's
/// protocol); the scripts themselves are tried in real shells by InstalledTests.
extension EndToEndTests {
    func completions(_ command: String, _ argument: String, _ words: [String], shell: String = "fish",
                     environment: [String: String] = [:], directory: URL? = nil) throws -> [String] {
        let index = words.count - 1
        let result = try workout(["---completion", command, "--", argument, "\(index)", "\(words[index].count)"] + words,
                                 environment: environment.merging(["SAP_SHELL": shell]) { $1 }, directory: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.lines
    }

    /// In an empty folder, so that no file or folder there completes too.
    func testRoutineNamesComplete() throws {
        let empty = try temporaryConfig()
        XCTAssertEqual(try completions("run", "positional@0", ["workout", "run", "ta"], directory: empty), ["tabata"])
        XCTAssertEqual(try completions("plan", "positional@0", ["workout", "plan", "p"], directory: empty),
                       ["pomodoro", "pyramid"])
        XCTAssertEqual(try completions("new", "--from", ["workout", "new", "mine", "--from", "se"], directory: empty),
                       ["seven-minute"])
        XCTAssertEqual(try completions("check", "positional@0", ["workout", "check", "hiit", "e"], directory: empty),
                       ["emom"])
    }

    func testTheUsersRoutinesCompleteBesideTheBundledOnes() throws {
        let config = try temporaryConfig()
        let programs = config.appendingPathComponent("workout/programs")
        try FileManager.default.createDirectory(at: programs, withIntermediateDirectories: true)
        try "return workout { name = \"Legs\", work(1) }\n".write(to: programs.appendingPathComponent("tabata-legs.lua"),
                                                                  atomically: false, encoding: .utf8)
        XCTAssertEqual(try completions("run", "positional@0", ["workout", "run", "tab"],
                                       environment: ["XDG_CONFIG_HOME": config.path], directory: programs),
                       ["tabata-legs", "tabata", "tabata-legs.lua"])
    }

    func testPathsCompleteToLuaFilesAndFolders() throws {
        let directory = try temporaryConfig()
        for name in ["mine/sub", "mine/.hidden"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(name),
                                                    withIntermediateDirectories: true)
        }
        for name in ["mine/a.lua", "mine/notes.txt", "mine/.b.lua", "main.lua"] {
            try "".write(to: directory.appendingPathComponent(name), atomically: false, encoding: .utf8)
        }
        XCTAssertEqual(try completions("run", "positional@0", ["workout", "run", "mine/"], directory: directory),
                       ["mine/a.lua", "mine/sub/"])
        XCTAssertEqual(try completions("run", "positional@0", ["workout", "run", "mine/."], directory: directory),
                       ["mine/.b.lua", "mine/.hidden/"])
        // Bash's script marks folders itself (complete -o filenames).
        XCTAssertEqual(try completions("run", "positional@0", ["workout", "run", "m"], shell: "bash",
                                       directory: directory), ["mobility", "main.lua", "mine"])
        XCTAssertEqual(try completions("run", "positional@0", ["workout", "run", "\(directory.path)/ma"]),
                       ["\(directory.path)/main.lua"])
    }

    func testSetCompletesTheNamedRoutinesParametersWithTheirDefaults() throws {
        XCTAssertEqual(try completions("run", "--set", ["workout", "run", "tabata", "--set", ""]),
                       ["recovery=1:00", "rest=10s", "rounds=8", "sets=3", "work=20s"])
        // Options and their values before it, and another --set, are passed over.
        XCTAssertEqual(try completions("run", "--set", ["workout", "run", "--speed", "2", "--set", "rest=5",
                                                        "couch-to-5k", "--json", "--set", "w"]),
                       ["warmup=5:00", "week=1"])
        XCTAssertEqual(try completions("plan", "--set", ["workout", "plan", "'tabata'", "--set", "ro"]), ["rounds=8"])
    }

    func testSetOffersABooleansTwoValues() throws {
        let directory = try temporaryConfig()
        let routine = directory.appendingPathComponent("flags.lua")
        try """
            local p = params { loud = false, rounds = 2 }
            return workout { name = "Flags", rounds(p.rounds, { work(1) }) }
            """.write(to: routine, atomically: false, encoding: .utf8)
        XCTAssertEqual(try completions("run", "--set", ["workout", "run", routine.path, "--set", ""]),
                       ["loud=false", "rounds=2"])
        XCTAssertEqual(try completions("run", "--set", ["workout", "run", routine.path, "--set", "loud="]),
                       ["loud=true", "loud=false"])
    }

    /// Without a routine that loads there is nothing to offer (an endless loop stops at the
    /// completion's own small limits).
    func testSetOffersNothingForARoutineThatDoesNotLoad() throws {
        let directory = try temporaryConfig()
        let endless = directory.appendingPathComponent("endless.lua")
        try "while true do end\n".write(to: endless, atomically: false, encoding: .utf8)
        XCTAssertEqual(try completions("run", "--set", ["workout", "run", endless.path, "--set", ""]), [])
        XCTAssertEqual(try completions("run", "--set", ["workout", "run", "nosuch", "--set", ""]), [])
        XCTAssertEqual(try completions("run", "--set", ["workout", "run", "--set", ""]), [])
    }
}
