import Foundation
import XCTest

/// luacheck (Debian `lua-check`, installed by `make test`) over the bundled programs, the
/// examples of docs/routines.md and the starter `workout new` writes, with the generated
/// `.luacheckrc`: a stray global, a misspelt name or `io.open` fails the build.
final class LintTests: XCTestCase {
    var luacheck: String? {
        ["/usr/bin/luacheck", "/usr/local/bin/luacheck"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    func lint(_ paths: [String], config: URL?, directory: URL) throws -> (status: Int32, output: String) {
        let luacheck = try XCTUnwrap(luacheck, "luacheck is missing: `make test` installs it (Debian lua-check)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: luacheck)
        process.arguments = ["--no-color", "--codes"] + (config.map { ["--config", $0.path] } ?? []) + paths
        process.currentDirectoryURL = directory
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("workout-lint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory
    }

    var config: URL { packageRoot.appendingPathComponent(".luacheckrc") }

    func testBundledProgramsPassLuacheck() throws {
        let result = try lint(["programs"], config: config, directory: packageRoot)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("0 warnings / 0 errors"), result.output)
    }

    func testDocExamplesPassLuacheck() throws {
        let page = try String(contentsOf: packageRoot.appendingPathComponent("docs/routines.md"), encoding: .utf8)
        let root = try temporaryDirectory()
        let directories = try DocExamples(markdown: page).write(into: root)
        XCTAssertGreaterThan(directories.count, 15)
        let result = try lint(["."], config: config, directory: root)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("0 warnings / 0 errors in \(directories.count) files"), result.output)
    }

    func testTheStarterRoutinePassesLuacheckWithItsOwnConfig() throws {
        let config = try temporaryDirectory()
        let new = try WorkoutBinary.run(["new", "starter"], environment: ["XDG_CONFIG_HOME": config.path])
        XCTAssertEqual(new.status, 0, new.stderr)
        let programs = config.appendingPathComponent("workout/programs")
        let result = try lint(["."], config: nil, directory: programs)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("0 warnings / 0 errors in 1 file"), result.output)
    }

    /// The config is strict where it matters: what the sandbox removes is undefined.
    func testLuacheckFlagsWhatTheSandboxRemoves() throws {
        let directory = try temporaryDirectory()
        try """
            local f = io.open("x")
            os.execute("ls")
            return workout { name = "x", wrok(20), f }
            """.write(to: directory.appendingPathComponent("bad.lua"), atomically: false, encoding: .utf8)
        let result = try lint(["bad.lua"], config: config, directory: directory)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.output.contains("bad.lua:1:11: (W113) accessing undefined variable 'io'"), result.output)
        XCTAssertTrue(result.output.contains("bad.lua:2:1: (W143) accessing undefined field 'execute' of global 'os'"), result.output)
        XCTAssertTrue(result.output.contains("bad.lua:3:30: (W113) accessing undefined variable 'wrok'"), result.output)
    }
}
