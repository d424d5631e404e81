import Foundation
import XCTest

/// A stand-in for intervals.icu's API (Fixtures/intervals_server.py) on a loopback port,
/// with a scratch folder of its own: the key it accepts, the events it lists, how it
/// answers (`mode`), and the log of the requests it got. Killed by `stop()` or with the
/// object.
final class IntervalsStandIn {
    static let key = "k3y-0f-th3-athl3te-9a8b7c"
    let directory: URL
    private let server: Daemon
    let port: Int

    init(events: String = "[]") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("workout-icu-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Self.key.write(to: directory.appendingPathComponent("key"), atomically: false, encoding: .utf8)
        try events.write(to: directory.appendingPathComponent("events.json"), atomically: false, encoding: .utf8)
        let script = fixtures.appendingPathComponent("intervals_server.py").path
        server = try Daemon("/usr/bin/python3", [script, directory.path], environment: [:],
                            log: directory.appendingPathComponent("server.log").path)
        let portFile = directory.appendingPathComponent("port").path
        guard eventually(timeout: 20, { FileManager.default.fileExists(atPath: portFile) }),
              let text = try? String(contentsOfFile: portFile, encoding: .utf8), let port = Int(text) else {
            server.kill()
            throw Failure("the stand-in did not start: \(String(describing: try? String(contentsOf: directory.appendingPathComponent("server.log"), encoding: .utf8)))")
        }
        self.port = port
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    var address: String { "http://127.0.0.1:\(port)" }

    /// workout's environment: the service's address, the key in the environment (unless
    /// `key` is nil), a config folder of this stand-in's own.
    func environment(key: String? = IntervalsStandIn.key) -> [String: String] {
        var environment = ["INTERVALS_ICU_URL": address, "XDG_CONFIG_HOME": directory.appendingPathComponent("config").path,
                           "XDG_DATA_HOME": directory.appendingPathComponent("data").path,
                           "XDG_STATE_HOME": directory.appendingPathComponent("state").path]
        environment["INTERVALS_ICU_API_KEY"] = key ?? ""
        return environment
    }

    /// `ok`, a status to answer everything with, or `slow`.
    func answer(_ mode: String) throws {
        try mode.write(to: directory.appendingPathComponent("mode"), atomically: false, encoding: .utf8)
    }

    /// The requests so far, each a JSON object.
    func requests() -> [[String: Any]] {
        let text = (try? String(contentsOf: directory.appendingPathComponent("requests.jsonl"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    func stop() {
        server.kill()
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}

/// A test class with a stand-in of its own for each test, started with the events of
/// `Fixtures/intervals/NAME.json` (`eventsFixture`) and killed at the test's end.
class IntervalsStandInTestCase: XCTestCase {
    var standIn: IntervalsStandIn!

    /// The fixture the stand-in lists as planned (nil: nothing planned).
    var eventsFixture: String? { nil }

    override func setUpWithError() throws {
        let events = try eventsFixture.map {
            try String(contentsOf: fixtures.appendingPathComponent("intervals/\($0).json"), encoding: .utf8)
        }
        standIn = try IntervalsStandIn(events: events ?? "[]")
    }

    override func tearDown() {
        standIn?.stop()
        standIn = nil
    }

    /// The binary with the stand-in's environment (its address, the key, folders of its own).
    func workout(_ arguments: [String], environment: [String: String] = [:]) throws -> WorkoutBinary.Result {
        try WorkoutBinary.run(arguments, environment: standIn.environment().merging(environment) { $1 })
    }
}
