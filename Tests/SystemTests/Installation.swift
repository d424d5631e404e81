import Foundation
import XCTest

/// What the tests of `make install` and `make deb` share: the Makefile's targets run as a
/// user runs them, and programs run under `env -i`, so that nothing of the build tree or
/// of this process's environment helps them along.
enum Installation {
    /// A step the tests depend on failed: a failure of every test that needs it.
    struct Failed: Error, CustomStringConvertible {
        var what: String
        var output: String
        var description: String { "\(what) failed:\n\(output)" }
    }

    /// The version, read from its one home in the sources.
    static var version: String {
        get throws {
            let source = try String(contentsOf: packageRoot.appendingPathComponent("Sources/WorkoutCLI/Version.swift"),
                                    encoding: .utf8)
            let line = try XCTUnwrap(source.split(separator: "\n").first { $0.contains("static let number = \"") })
            return String(line.split(separator: "\"")[1])
        }
    }

    /// `make ARGUMENTS` in the repository. Only targets that build nothing (`install-built`,
    /// `uninstall`, `deb-built`): `swift test` holds SwiftPM's lock on .build, which a nested
    /// `swift build` would wait for; `make test` builds the release and its man page first.
    static func make(_ arguments: [String]) throws -> Spawned {
        try command(["make", "--no-print-directory", "-C", packageRoot.path] + arguments)
    }

    /// Runs `arguments` under `env -i` with only `variables` set.
    static func clean(_ arguments: [String], _ variables: [String: String]) throws -> Spawned {
        try command(["env", "-i"] + variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + arguments)
    }

    /// Runs a program found on PATH; its errors are in its output, to show when it fails.
    static func command(_ arguments: [String]) throws -> Spawned {
        try spawn("/bin/sh", ["-c", "exec \"$@\" 2>&1", "sh"] + arguments)
    }

    /// A new empty directory, removed with everything in it when `test` ends.
    static func temporaryDirectory(_ name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("workout-\(name)-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Every path under `directory`, relative to it, sorted.
    static func tree(_ directory: URL) -> [String] {
        let entries = FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String] ?? []
        return entries.sorted()
    }
}
