import Foundation
import XCTest

/// notify-send and speech are children of the timer: every one is reaped, and none
/// is left behind, over a fast 1,000-segment run.
final class ProcessHygieneTests: XCTestCase {
    var binary: String { WorkoutBinary.binary }

    /// The children of `parent` and their states (`Z` for a zombie).
    func children(of parent: Int32) -> [(pid: Int32, state: String)] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> (Int32, String)? in
            guard let pid = Int32(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, Int32(fields[1]) == parent else { return nil }
            return (pid, String(fields[0]))
        }
    }

    func testAThousandSegmentsLeaveNoZombies() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("workout-hygiene-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, tail) in [("notify-send", "echo 7"), ("spd-say", "")] {
            let script = directory.appendingPathComponent(name)
            try "#!/bin/sh\necho x >> \"$0.log\"\n\(tail)\n".write(to: script, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["run", fixtures.appendingPathComponent("many.lua").path, "--speed", "500",
                             "--notify", "--voice", "--no-bell"]
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = directory.path + ":/usr/bin:/bin"
        environment["XDG_DATA_HOME"] = directory.path
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        let lines = { (name: String) -> Int in
            ((try? String(contentsOf: directory.appendingPathComponent(name + ".log"), encoding: .utf8)) ?? "")
                .split(separator: "\n").count
        }
        // Every segment start sends one notification and says one name (the hold included).
        // Speech and notifications each go one at a time: on a loaded machine 1,001 of
        // each take a while, and the hold (173 s at this speed) waits for them.
        let giveUp = Date().addingTimeInterval(150)
        while (lines("notify-send") < 1001 || lines("spd-say") < 1001) && Date() < giveUp {
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTAssertEqual(lines("notify-send"), 1001)
        XCTAssertEqual(lines("spd-say"), 1001)
        XCTAssertTrue(process.isRunning, "still in the hold")
        // A child that has just exited is a zombie for a moment; none may stay one.
        var left: [(pid: Int32, state: String)] = []
        for _ in 0..<20 {
            left = children(of: process.processIdentifier)
            if left.isEmpty { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTAssertEqual(left.map(\.state), [], "children left behind: \(left)")
    }
}
