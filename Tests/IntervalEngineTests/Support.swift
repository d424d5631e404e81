import Foundation

/// The system tests: each starts the real thing it tests — the binary, tmux, a private
/// pulseaudio or session bus, headless Chromium — and stops it (`make test` runs them with
/// the unit tests of Tests/UnitTests).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
/// Where the fixture routines live, beside the tests.
let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
/// The imported workout files the interchange tests read.
let interchangeFixtures = fixtures.appendingPathComponent("interchange")
