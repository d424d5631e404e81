import Foundation
import XCTest
@testable import IntervalEngine

/// The unit tests: the engine and the display's pure parts, on the virtual clock, with no
/// process of their own (`make test-unit`). The system tests beside them
/// (Tests/SystemTests) start the real things: tmux, pulseaudio, Chromium, the binary.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
/// The fixture routines and files, which both test targets read.
let fixtures = packageRoot.appendingPathComponent("Tests/SystemTests/Fixtures")

/// The imported workout files the interchange tests read.
let interchangeFixtures = fixtures.appendingPathComponent("interchange")
