import Foundation
import XCTest
@testable import IntervalEngine

/// Runs the built binary as a user or a script runs it. `make test` builds it first and
/// names it in WORKOUT_BIN.
enum WorkoutBinary {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    static var binary: String {
        ProcessInfo.processInfo.environment["WORKOUT_BIN"]
            ?? packageRoot.appendingPathComponent(".build/debug/workout").path
    }

    /// Runs the binary; `whileRunning` may read the start of its output and signal it,
    /// and returns what it read. `executable`: a shell that runs the binary in its turn
    /// (to redirect its output), with the same environment.
    static func run(_ arguments: [String], environment: [String: String] = [:], directory: URL? = nil,
                    executable: String? = nil, whileRunning: ((Process, FileHandle) -> Data)? = nil) throws -> Result {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: binary), "build the binary first: \(binary)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable ?? binary)
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = nil
        env["XDG_CONFIG_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("workout-e2e-config").path
        // Real runs record history: never in the home directory of whoever runs the tests.
        env["XDG_DATA_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("workout-e2e-data").path
        // No sound server unless a test starts its own: never the desktop's of whoever
        // runs the tests.
        env["PULSE_SERVER"] = "unix:/nonexistent/workout-test-sound"
        env.merge(environment) { $1 }
        process.environment = env
        // Without a server, a real run warns once that the bell stands in for sounds: the
        // tests that name no server are about other things, and run without sound (the
        // sound tests name theirs, or the missing one they mean).
        var arguments = arguments
        if arguments.first == "run", environment["PULSE_SERVER"] == nil { arguments.append("--no-sound") }
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let start = whileRunning?(process, out.fileHandleForReading) ?? Data()
        let output = start + out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
                      stderr: String(decoding: errors, as: UTF8.self))
    }
}

/// The built binary end to end.
final class EndToEndTests: XCTestCase {
    typealias Result = WorkoutBinary.Result

    /// Runs the binary; `whileRunning` may read the start of its output and signal it,
    /// and returns what it read.
    func workout(_ arguments: [String], environment: [String: String] = [:], directory: URL? = nil,
                 whileRunning: ((Process, FileHandle) -> Data)? = nil) throws -> Result {
        try WorkoutBinary.run(arguments, environment: environment, directory: directory, whileRunning: whileRunning)
    }

    /// With `--bell`: a dry run reports the bells only when asked (below).
    func testDryRunJSONMatchesTheExpectedEventsOneByOne() throws {
        let result = try workout(["run", fixtures.appendingPathComponent("e2e.lua").path, "--dry-run", "--json", "--bell"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let expected = try String(contentsOf: fixtures.appendingPathComponent("e2e.expected.jsonl"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        XCTAssertEqual(result.lines.count, expected.count)
        for (number, (got, want)) in zip(result.lines, expected).enumerated() {
            XCTAssertEqual(got, want, "event \(number + 1)")
        }
    }

    /// Without `--bell` a dry run prints no line for the automatic bells (every boundary
    /// and countdown second), only the routine's own `bell()` calls; everything else is
    /// the same.
    func testADryRunPrintsTheBellsOnlyWhenAsked() throws {
        let path = fixtures.appendingPathComponent("e2e.lua").path
        let asked = try workout(["run", path, "--dry-run", "--json", "--bell"])
        let quiet = try workout(["run", path, "--dry-run", "--json"])
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        let bells = asked.lines.filter { $0.contains(#""type":"bell""#) }
        XCTAssertGreaterThan(bells.count, 10)
        XCTAssertEqual(quiet.lines, asked.lines.filter { !bells.contains($0) })
        let source = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertFalse(source.contains("bell()"), "the fixture rings no bell of its own")
        let plain = try workout(["run", path, "--dry-run"])
        XCTAssertFalse(plain.stdout.contains("bell"), plain.stdout)
        let own = try workout(["run", fixtures.appendingPathComponent("e2e.lua").path, "--dry-run", "--no-bell"])
        XCTAssertEqual(own.stdout, plain.stdout, "--no-bell changes nothing in a dry run")
    }

    func testPlanAgreesWithTheDryRun() throws {
        let path = fixtures.appendingPathComponent("e2e.lua").path
        let plan = try workout(["plan", path, "--json"])
        XCTAssertEqual(plan.status, 0, plan.stderr)
        let planned = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])
        let segments = try XCTUnwrap(planned["segments"] as? [[String: Any]])
        let run = try workout(["run", path, "--dry-run", "--json"])
        let starts = try run.lines.compactMap { line -> [String: Any]? in
            let event = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return event["event"] as? String == "segment_start" ? event : nil
        }
        XCTAssertEqual(starts.count, segments.count)
        for (start, segment) in zip(starts, segments) {
            XCTAssertEqual(start["t"] as? Double, segment["start"] as? Double)
            XCTAssertEqual(start["name"] as? String, segment["name"] as? String)
            XCTAssertEqual(start["duration"] as? Double, segment["duration"] as? Double)
        }
        XCTAssertEqual(planned["duration"] as? Double, 19)
    }

    func testBundledProgramsAllCheck() throws {
        let programs = packageRoot.appendingPathComponent("programs")
        let names = try FileManager.default.contentsOfDirectory(atPath: programs.path).filter { $0.hasSuffix(".lua") }
        for required in ["demo.lua", "hiit.lua", "tabata.lua", "emom.lua", "pyramid.lua", "boxing.lua", "seven-minute.lua",
                         "mobility.lua", "couch-to-5k.lua", "pomodoro.lua", "best-round.lua", "ladder.lua", "hold-zone2.lua"] {
            XCTAssertTrue(names.contains(required), "programs/\(required) is missing")
        }
        let result = try workout(["check"] + names.map { programs.appendingPathComponent($0).path })
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines.count, names.count)
        for name in names {
            let dry = try workout(["run", programs.appendingPathComponent(name).path, "--dry-run", "--json"])
            XCTAssertEqual(dry.status, 0, "\(name): \(dry.stderr)")
            XCTAssertFalse(dry.stdout.contains(#""event":"error""#), "\(name) has a failing hook: \(dry.stdout)")
            if name == "best-round.lua" {
                // It never ends by itself: the dry run stops at the horizon and says so.
                XCTAssertTrue(dry.lines.last?.contains(#""completed":false,"elapsed":"#) == true, name)
                XCTAssertTrue(dry.stderr.contains("open-ended; the dry run stopped after 1000 segments"), dry.stderr)
            } else {
                XCTAssertTrue(dry.lines.last?.contains(#""completed":true"#) == true, name)
            }
        }
    }

    func testBundledProgramsAreFoundByName() throws {
        let result = try workout(["plan", "tabata"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("segments"), result.stdout)
        let list = try workout(["list"])
        XCTAssertTrue(list.stdout.contains("demo"), list.stdout)
    }

    func testUserProgramsComeBeforeBundledOnes() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("workout-e2e-user-\(getpid())")
        let programs = config.appendingPathComponent("workout/programs")
        try FileManager.default.createDirectory(at: programs, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: config) }
        try "return workout { name = \"My tabata\", work(1) }".write(
            to: programs.appendingPathComponent("tabata.lua"), atomically: false, encoding: .utf8)
        let result = try workout(["check", "tabata"], environment: ["XDG_CONFIG_HOME": config.path])
        XCTAssertTrue(result.stdout.contains("My tabata"), result.stdout)
    }

    func testABadRoutineExitsOneWithFileAndLine() throws {
        let path = fixtures.appendingPathComponent("bad/rounds-zero.lua").path
        let result = try workout(["run", path, "--json"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "workout: rounds-zero.lua:3: rounds: count must be a positive integer, got 0\n")
        XCTAssertEqual(result.stdout, "")
    }

    func testUsageErrorsExit64AndNameTheFlag() throws {
        let result = try workout(["run", "demo", "--speed", "0"])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.contains("--speed"), result.stderr)
        let unknown = try workout(["run", "demo", "--sped", "2"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("--sped"), unknown.stderr)
    }

    func testAFailingHookExitsOneButTheWorkoutFinishes() throws {
        let result = try workout(["run", fixtures.appendingPathComponent("hook-error.lua").path, "--dry-run"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stdout.contains("error in on_segment_start: hook-error.lua:4: attempt to"), result.stdout)
        XCTAssertTrue(result.lines.last?.contains("finished after 0:03, 3 segments done") == true, result.stdout)
    }

    func testARealRunAtSpeedIsOnTime() throws {
        let result = try workout(["run", fixtures.appendingPathComponent("e2e.lua").path, "--speed", "20", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let events = try result.lines.map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let starts = events.filter { $0["event"] as? String == "segment_start" }
        XCTAssertEqual(starts.compactMap { $0["at"] as? Double }, [3, 8, 10, 15])
        for start in starts.dropFirst() {
            // Generous: a loaded CI machine may be late, but never by whole segments.
            XCTAssertLessThan(try XCTUnwrap(start["late_ms"] as? Double), 50)
            XCTAssertGreaterThanOrEqual(try XCTUnwrap(start["t"] as? Double), try XCTUnwrap(start["at"] as? Double) - 0.001)
        }
        let end = try XCTUnwrap(events.last)
        XCTAssertEqual(end["event"] as? String, "workout_end")
        XCTAssertEqual(end["elapsed"] as? Double, 19)
    }

    /// The first event is printed after the signal handlers are in place.
    func signal(_ number: Int32, _ process: Process, afterFirstLineOf output: FileHandle) -> Data {
        var read = Data()
        while !read.contains(UInt8(ascii: "\n")) {
            let chunk = output.availableData
            if chunk.isEmpty { break }
            read += chunk
        }
        kill(process.processIdentifier, number)
        return read
    }

    func testSigintStopsTheRunWithExit130() throws {
        let result = try workout(["run", fixtures.appendingPathComponent("e2e.lua").path, "--json"]) {
            self.signal(SIGINT, $0, afterFirstLineOf: $1)
        }
        XCTAssertEqual(result.status, 130, result.stderr)
        XCTAssertTrue(result.lines.last?.contains(#""event":"workout_end""#) == true, result.stdout)
        XCTAssertTrue(result.lines.last?.contains(#""completed":false"#) == true, result.stdout)
    }

    func testSigtermStopsTheRunWithExit143() throws {
        let result = try workout(["run", fixtures.appendingPathComponent("e2e.lua").path]) {
            self.signal(SIGTERM, $0, afterFirstLineOf: $1)
        }
        XCTAssertEqual(result.status, 143, result.stderr)
        XCTAssertTrue(result.lines.last?.contains("stopped after") == true, result.stdout)
    }
}
