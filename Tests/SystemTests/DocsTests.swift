import Foundation
import XCTest
@testable import IntervalEngine
@testable import LuaBridge

/// docs/routines.md cannot drift: every example routine is run, every command shown is
/// run and its output compared line by line, and every global, field and hook of the
/// API table is mentioned.
final class DocsTests: XCTestCase {
    var page: String {
        get throws { try String(contentsOf: packageRoot.appendingPathComponent("docs/routines.md"), encoding: .utf8) }
    }

    func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("workout-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory
    }

    func testTheExamplesRunAndPrintWhatThePageShows() throws {
        let examples = DocExamples(markdown: try page)
        XCTAssertGreaterThan(examples.routines.count, 15, "the examples were not found")
        let root = try temporaryDirectory()
        let directories = try examples.write(into: root)
        let environment = ["XDG_CONFIG_HOME": root.appendingPathComponent("config").path, "NO_COLOR": "1"]
        for (routine, directory) in zip(examples.routines, directories) {
            if routine.commands.isEmpty {
                let result = try WorkoutBinary.run(["run", routine.fileName, "--dry-run", "--json"],
                                                environment: environment, directory: directory)
                XCTAssertEqual(result.status, 0, "docs/routines.md:\(routine.line): \(result.stderr)")
                XCTAssertFalse(result.stdout.contains(#""event":"error""#), "docs/routines.md:\(routine.line): \(result.stdout)")
                XCTAssertTrue(result.lines.last?.contains(#""completed":true"#) == true, "docs/routines.md:\(routine.line)")
            }
            for command in routine.commands {
                try check(command, environment: environment, directory: directory)
            }
        }
        for command in examples.commands {
            try check(command, environment: environment, directory: root)
        }
    }

    func check(_ command: DocExamples.Command, environment: [String: String],
               directory: URL) throws {
        let result = try WorkoutBinary.run(command.arguments, environment: environment, directory: directory)
        let output = (result.stdout + result.stderr).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        let got = output.last == "" ? Array(output.dropLast()) : output
        XCTAssertEqual(got, command.expected,
                       "docs/routines.md:\(command.line): `workout \(command.arguments.joined(separator: " "))` printed:\n"
                       + got.joined(separator: "\n"))
    }

    func testThePageCoversEveryGlobalFieldAndHook() throws {
        let page = try page
        for function in RoutineAPI.functions {
            XCTAssertTrue(page.contains("`\(function.name)"), "docs/routines.md does not mention \(function.name)")
        }
        for shape in RoutineTypes.all {
            for field in shape.fields {
                XCTAssertTrue(page.contains("`\(field.name)`") || page.contains("\(field.name) ="),
                              "docs/routines.md does not mention \(shape.name).\(field.name)")
            }
        }
        for kind in Parameter.Kind.allCases {
            XCTAssertTrue(page.contains("`\(kind.rawValue)`"), "docs/routines.md does not mention the \(kind) parameter type")
        }
        for form in ["\"90\"", "\"90s\"", "\"1:30\"", "\"1:02:03\"", "\"2m\"", "\"1m30s\"", "\"1h\"", "\"1h5m\""] {
            XCTAssertTrue(page.contains("`\(form)`"), "docs/routines.md does not show the duration \(form)")
        }
    }

    func testTheReadmeLinksTheReference() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        XCTAssertTrue(readme.contains("(docs/routines.md)"))
        XCTAssertTrue(readme.contains("(docs/api.md)"))
    }

    func testCommandLinesSplitLikeAShell() {
        XCTAssertEqual(DocExamples.words(#"workout run pomodoro --set task="Write the report""#),
                       ["workout", "run", "pomodoro", "--set", "task=Write the report"])
        XCTAssertEqual(DocExamples.fileName("-- first.lua"), "first.lua")
        XCTAssertNil(DocExamples.fileName("-- not a file name"))
    }
}
