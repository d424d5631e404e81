import Foundation
import XCTest

/// The system tests: each starts the real thing it tests — the binary, tmux, a private
/// pulseaudio or session bus, headless Chromium — and stops it (`make test` runs them with
/// the unit tests of Tests/UnitTests).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
/// Where the fixture routines live, beside the tests.
let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
/// The imported workout files the interchange tests read.
let interchangeFixtures = fixtures.appendingPathComponent("interchange")

extension XCTestCase {
    /// A new empty folder for this test, removed when it ends.
    func scratchFolder(_ prefix: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }
}
