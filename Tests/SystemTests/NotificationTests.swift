import Foundation
import XCTest

/// Notifications for real: notify-send against a session bus of the test's own
/// (`dbus-run-session`), with the project's notification server logging each call.
final class NotificationTests: XCTestCase {
    struct Notification: Decodable, Equatable {
        var app_name: String
        var replaces_id: Int
        var id: Int
        var summary: String
        var body: String
        var urgency: Int?
    }

    var binary: String { WorkoutBinary.binary }

    /// Runs the three-segment routine at --speed 10 on a new session bus with the
    /// server; returns the exit status and the notifications the server received.
    func runOnABus(_ arguments: String) throws -> (status: Int32, notifications: [Notification]) {
        let busRunner = try PrivateBus.runner()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/notify-send") else {
            throw Missing(program: "notify-send")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("workout-bus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dir = directory.path
        let server = fixtures.appendingPathComponent("notification_server.py").path
        let routine = fixtures.appendingPathComponent("notify.lua").path
        let script = """
            \(PrivateBus.startServer(server, log: "\(dir)/log", in: dir))
            XDG_DATA_HOME='\(dir)' '\(binary)' run '\(routine)' --speed 10 \(arguments) > '\(dir)/out'
            status=$?
            kill $server
            exit $status
            """
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        let result = try spawn(busRunner, ["--", "/bin/sh", "-c", script], environment: environment)
        XCTAssertNotEqual(result.status, PrivateBus.serverDidNotStart, "the notification server did not start")
        let log = (try? String(contentsOfFile: "\(dir)/log", encoding: .utf8)) ?? ""
        let notifications = try log.split(separator: "\n").map {
            try JSONDecoder().decode(Notification.self, from: Data($0.utf8))
        }
        return (result.status, notifications)
    }

    func testOneNotificationPerSegmentInOrderEachReplacingThePrevious() throws {
        let (status, notifications) = try runOnABus("--notify")
        XCTAssertEqual(status, 0)
        XCTAssertEqual(notifications.map(\.summary), ["Jumps", "Breathe", "Squats", "Bus test done"])
        XCTAssertEqual(notifications.map(\.body), [
            "work · 0:02 · next: Breathe", "rest · 0:02 · next: Squats", "work · 0:02",
            "0:06 · 3/3 segments · 0:04 of work",
        ])
        XCTAssertEqual(Set(notifications.map(\.app_name)), ["workout"])
        guard let first = notifications.first else { return }
        XCTAssertEqual(first.replaces_id, 0, "the first one is new")
        for (previous, next) in zip(notifications, notifications.dropFirst()) {
            XCTAssertEqual(next.replaces_id, previous.id, "each replaces the one before")
        }
        XCTAssertEqual(notifications.map(\.urgency), [1, 1, 1, 2], "the finish is critical")
    }

    func testOnByDefaultWhereASessionBusIsAndOffWithNoNotify() throws {
        let (status, notifications) = try runOnABus("")
        XCTAssertEqual(status, 0)
        XCTAssertEqual(notifications.count, 4)
        let (quietStatus, none) = try runOnABus("--no-notify")
        XCTAssertEqual(quietStatus, 0)
        XCTAssertEqual(none, [])
    }
}
