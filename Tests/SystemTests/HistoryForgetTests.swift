import Foundation
import XCTest
@testable import History
@testable import IntervalEngine

/// `workout history forget` on real files, against real concurrent runs, and asking in
/// a real terminal.
extension EndToEndTests {
    func seededHistory(_ count: Int) throws -> (data: URL, file: URL) {
        let data = try dataHome()
        let file = data.appendingPathComponent("workout/history.jsonl")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let lines = (1...count).map { number in
            #"{"program":"Seed \#(number)","file":"/r.lua","sha256":"","started":"2026-01-01T07:00:00Z","ended":"2026-01-01T07:00:00Z","completed":true,"elapsed":60,"segments_done":1,"segments":1,"work_seconds":30}"#
        }
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: false, encoding: .utf8)
        return (data, file)
    }

    func testForgetRemovesTheNthLatestAndKeepsEveryOtherLineAsItWas() throws {
        let (data, file) = try seededHistory(4)
        // A damaged line stays, byte for byte.
        let handle = try FileHandle(forWritingTo: file)
        handle.seekToEndOfFile()
        handle.write(Data("not json\n".utf8))
        handle.closeFile()
        let before = try String(contentsOf: file, encoding: .utf8)
        let environment = ["XDG_DATA_HOME": data.path, "TZ": "UTC"]

        // Not on a terminal and without --yes: shown, not forgotten.
        let refused = try workout(["history", "forget"], environment: environment)
        XCTAssertEqual(refused.status, 64)
        XCTAssertTrue(refused.stdout.contains("Seed 4"), refused.stdout)
        XCTAssertTrue(refused.stderr.contains("--yes"), refused.stderr)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), before)

        let second = try workout(["history", "forget", "2", "--yes"], environment: environment)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(second.lines.first?.hasPrefix("2026-01-01 07:00  Seed 3 "), true, second.stdout)
        XCTAssertEqual(second.lines.last, "Forgotten.")
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8),
                       before.components(separatedBy: "\n").filter { !$0.contains("Seed 3\"") }.joined(separator: "\n"))
        XCTAssertEqual(try workout(["history", "forget", "--yes"], environment: environment).status, 0)
        XCTAssertEqual(try HistoryFile(path: file.path).read().entries.map(\.program), ["Seed 1", "Seed 2"])
        XCTAssertTrue(try String(contentsOf: file, encoding: .utf8).hasSuffix("\nnot json\n"))

        let tooFar = try workout(["history", "forget", "3", "--yes"], environment: environment)
        XCTAssertEqual(tooFar.status, 1)
        XCTAssertEqual(tooFar.stderr.components(separatedBy: "\n").last { !$0.isEmpty },
                       "workout: the history has 2 sessions, so there is no session 3 to forget")
        XCTAssertEqual(try workout(["history", "forget", "0"], environment: environment).status, 64)
    }

    /// Workouts end and append while `forget` rewrites the file, over and over. The seeds
    /// make each rewrite long (reading and writing some 200 KB), so that without the lock
    /// an append landing between the read and the rename would be lost.
    func testForgetRacingConcurrentAppendsLosesNothing() throws {
        let seeds = 1_000
        let (data, file) = try seededHistory(seeds)
        let routine = data.appendingPathComponent("quick.lua")
        try "return workout { name = \"Quick\", countdown = 0, work(0.2) }".write(to: routine, atomically: false, encoding: .utf8)
        let runs = 20
        let forgets = 10
        func loop(_ count: Int, _ arguments: String) throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "for i in $(seq \(count)); do \"$0\" \(arguments) > /dev/null || exit 1; done",
                                 WorkoutBinary.binary]
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_DATA_HOME"] = data.path
            environment["DBUS_SESSION_BUS_ADDRESS"] = nil
            process.environment = environment
            try process.run()
            return process
        }
        let appending = try loop(runs, "run '\(routine.path)' --speed 1000")
        let forgetting = try loop(forgets, "history forget --yes")
        for process in [appending, forgetting] {
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0)
        }
        let contents = try HistoryFile(path: file.path).read()
        XCTAssertEqual(contents.damaged, [])
        XCTAssertEqual(contents.entries.count, seeds + runs - forgets)
        // Each forget took the latest line there was: a seed only once no run was left.
        let quick = contents.entries.filter { $0.program == "Quick" }.count
        let seedsLeft = contents.entries.count - quick
        XCTAssertEqual(quick + seedsLeft, seeds + runs - forgets)
        XCTAssertLessThanOrEqual(seeds - seedsLeft, forgets)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        XCTAssertEqual(leftovers, ["history.jsonl"], "no temporary file is left behind")
    }

    func testForgetAsksOnATerminal() throws {
        let (data, file) = try seededHistory(2)
        let pane = try TmuxPane(columns: 100, rows: 10)
        try pane.type("XDG_DATA_HOME=\(data.path) TZ=UTC '\(WorkoutBinary.binary)' history forget")
        XCTAssertTrue(pane.wait { pane.text.contains("Forget this session? [y/N]") }, pane.text)
        XCTAssertTrue(pane.text.contains("Seed 2"), pane.text)
        try pane.type("n")
        XCTAssertTrue(pane.wait { pane.text.contains("Kept.") }, pane.text)
        XCTAssertEqual(try HistoryFile(path: file.path).read().entries.count, 2)
        try pane.type("XDG_DATA_HOME=\(data.path) TZ=UTC '\(WorkoutBinary.binary)' history forget")
        XCTAssertTrue(pane.wait { pane.text.components(separatedBy: "[y/N]").count == 3 }, pane.text)
        try pane.type("y")
        XCTAssertTrue(pane.wait { pane.text.contains("Forgotten.") }, pane.text)
        XCTAssertEqual(try HistoryFile(path: file.path).read().entries.map(\.program), ["Seed 1"])
    }
}
