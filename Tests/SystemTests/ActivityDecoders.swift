import Foundation
import Platform
import XCTest
@testable import IntervalEngine

/// The reference readers of exported activity files: Garmin's FIT SDK for Python and
/// fitdecode (in the venv `make test-deps` makes, or FIT_PYTHON), and xmllint with the
/// TCX schema of the fixtures. A missing one fails the test that needs it.
enum ActivityDecoders {
    static let schema = fixtures.appendingPathComponent("activity/TrainingCenterDatabasev2-subset.xsd")

    struct Decoded {
        /// Garmin's SDK: `lap_mesgs` → each lap's fields.
        var garmin: [String: [[String: Any]]]
        var garminErrors: [String]
        var integrity: Bool
        /// fitdecode: `lap` → each lap's fields.
        var second: [String: [[String: Any]]]
        var secondErrors: [String]
    }

    static func decodeFIT(_ path: String) throws -> Decoded {
        let python = ProcessInfo.processInfo.environment["FIT_PYTHON"]
            ?? packageRoot.appendingPathComponent(".build-fit/venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            XCTFail("the FIT decoders are not installed at \(python): make test-deps (or make fit-decoders)")
            throw CocoaError(.fileNoSuchFile)
        }
        let output = try run(python, [fixtures.appendingPathComponent("activity/fit_decode.py").path, path])
        XCTAssertEqual(output.status, 0, output.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let garmin = try XCTUnwrap(object["garmin"] as? [String: Any])
        let second = try XCTUnwrap(object["fitdecode"] as? [String: Any])
        return Decoded(garmin: garmin["messages"] as? [String: [[String: Any]]] ?? [:],
                       garminErrors: garmin["errors"] as? [String] ?? ["no errors list"],
                       integrity: (garmin["integrity"] as? Bool ?? false) && (garmin["is_fit"] as? Bool ?? false),
                       second: second["messages"] as? [String: [[String: Any]]] ?? [:],
                       secondErrors: second["errors"] as? [String] ?? ["no errors list"])
    }

    /// xmllint's verdict on a TCX file against the schema: nil when it validates.
    static func tcxProblems(_ path: String) throws -> String? {
        let xmllint = try XCTUnwrap(ExecutableSearch.find("xmllint"), "xmllint is not installed (make test-deps installs libxml2-utils)")
        let result = try run(xmllint, ["--noout", "--schema", schema.path, path])
        return result.status == 0 ? nil : result.stderr
    }

    private static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        // Standard error to a file: a large output on one pipe must not block the other.
        let errorsFile = FileManager.default.temporaryDirectory.appendingPathComponent("workout-decoder-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errorsFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorsFile) }
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: errorsFile)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errors = try Data(contentsOf: errorsFile)
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }
}
