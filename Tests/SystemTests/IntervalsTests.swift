import Foundation
import XCTest

/// The intervals.icu calendar end to end, against a stand-in of its API started by each
/// test (`IntervalsStandIn`): `workout today`, `workout run today`, `workout intervals
/// login`, each status said in one line, and the key never in an argument or the output.
final class IntervalsTests: IntervalsStandInTestCase {
    override var eventsFixture: String? { "events" }

    /// The key is neither on standard output nor on standard error.
    func assertNoKey(_ result: WorkoutBinary.Result, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(result.stdout.contains(IntervalsStandIn.key), "the key was printed", file: file, line: line)
        XCTAssertFalse(result.stderr.contains(IntervalsStandIn.key), "the key was printed", file: file, line: line)
    }

    func testTodayListsTheDaysPlannedWorkouts() throws {
        let result = try workout(["today"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines.count, 3, result.stdout)
        XCTAssertTrue(result.lines[0].hasPrefix("Planned on intervals.icu for "), result.stdout)
        XCTAssertEqual(result.lines[1], "  today     1:00:00  Ride  Sweet spot 2x(3x5)")
        XCTAssertEqual(result.lines[2], "  today:2            Run  Evening run")
        assertNoKey(result)
        let request = try XCTUnwrap(standIn.requests().first)
        XCTAssertEqual(request["path"] as? String, "/api/v1/athlete/0/events")
        XCTAssertEqual(request["user"] as? String, "API_KEY")
        let query = try XCTUnwrap(request["query"] as? [String: [String]])
        XCTAssertEqual(query["category"], ["WORKOUT"])
        XCTAssertEqual(query["resolve"], ["true"])
        XCTAssertEqual(query["oldest"], query["newest"])
    }

    func testNothingPlannedSaysSo() throws {
        try "[]".write(to: standIn.directory.appendingPathComponent("events.json"), atomically: false, encoding: .utf8)
        let result = try workout(["today"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("Nothing planned on intervals.icu for "), result.stdout)
        let run = try workout(["run", "today", "--dry-run"])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.contains("today: nothing is planned on intervals.icu for "), run.stderr)
    }

    /// The day asked for is the athlete's local date, in a time zone far from UTC on either
    /// side: a day apart or two, at any hour.
    func testTheDayAskedForIsTheLocalDateOfTheTimeZone() throws {
        for zone in ["Pacific/Kiritimati", "Pacific/Pago_Pago"] {
            let before = Self.date(in: zone)
            let result = try workout(["today"], environment: ["TZ": zone])
            let after = Self.date(in: zone)
            XCTAssertEqual(result.status, 0, result.stderr)
            let query = try XCTUnwrap(standIn.requests().last?["query"] as? [String: [String]])
            let asked = try XCTUnwrap(query["oldest"]?.first)
            XCTAssertTrue(asked == before || asked == after, "\(zone): asked \(asked), the date there is \(before)")
            XCTAssertTrue(result.stdout.contains("for \(asked):"), result.stdout)
        }
        let days = standIn.requests().compactMap { ($0["query"] as? [String: [String]])?["oldest"]?.first }
        XCTAssertEqual(days.count, 2)
        XCTAssertNotEqual(days[0], days[1], "UTC+14 and UTC−11 are never on the same date")
    }

    static func date(in zone: String) -> String {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date())
    }

    func testRunTodayRunsTheFirstWithItsTargetsAndTodayTwoTheSecond() throws {
        let result = try workout(["run", "today", "--dry-run", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let events = result.lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let starts = events.filter { $0["event"] as? String == "segment_start" }
        // Warm-up, 2 × (3 × (work, rest) + easy), the open step, the cool-down.
        XCTAssertEqual(starts.count, 1 + 2 * 7 + 2)
        XCTAssertEqual(events.first?["name"] as? String, "Sweet spot 2x(3x5)")
        let first = try XCTUnwrap(starts.first)
        XCTAssertEqual(first["kind"] as? String, "warmup")
        let info = try XCTUnwrap(first["info"] as? [String: Any])
        XCTAssertEqual(info["ramp"] as? Bool, true)
        XCTAssertEqual((info["power"] as? [String: Any])?["low"] as? Int, 50)
        XCTAssertEqual((info["watts"] as? [String: Any])?["high"] as? Int, 188)
        XCTAssertEqual((starts[1]["info"] as? [String: Any])?["power"] as? Int, 90)
        XCTAssertEqual((starts[1]["info"] as? [String: Any])?["cadence"] as? [String: Int], ["low": 85, "high": 95])
        XCTAssertEqual((starts[7]["info"] as? [String: Any])?["lthr"] as? Int, 70)
        XCTAssertEqual(starts[15]["name"] as? String, "Spin until ready")
        XCTAssertEqual((starts[15]["info"] as? [String: Any])?["hr_zone"] as? String, "Z1-Z2")
        XCTAssertEqual((starts[16]["info"] as? [String: Any])?["pace"] as? Int, 80)
        XCTAssertTrue(result.lines.contains { $0.contains(#""text":"ramp 50-75% FTP · 125-188 W""#) }, result.stdout)

        let second = try workout(["run", "today:2", "--dry-run"])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stdout.contains("start Evening run: 1 segment"), second.stdout)
        XCTAssertTrue(second.stdout.contains("75% HR · 142 bpm"), second.stdout)

        let third = try workout(["run", "today:3", "--dry-run"])
        XCTAssertEqual(third.status, 1)
        XCTAssertTrue(third.stderr.contains("today:3: only 2 workouts are planned"), third.stderr)
        assertNoKey(result)
    }

    func testLoginKeepsTheKeyInAFileOnlyItsOwnerReads() throws {
        var environment = standIn.environment(key: nil)
        environment["KEY"] = IntervalsStandIn.key
        environment["WORKOUT"] = WorkoutBinary.binary
        // The key reaches workout on its standard input: `$KEY` is expanded by the shell
        // into printf's argument, never workout's.
        let login = try WorkoutBinary.run(["-c", #"printf '%s\n' "$KEY" | "$WORKOUT" intervals login"#],
                                          environment: environment, executable: "/bin/sh")
        XCTAssertEqual(login.status, 0, login.stderr)
        XCTAssertTrue(login.stdout.contains("Kept the key (the athlete Stand-in Athlete) in "), login.stdout)
        assertNoKey(login)
        let file = standIn.directory.appendingPathComponent("config/workout/intervals-icu-key").path
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), IntervalsStandIn.key + "\n")
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
        XCTAssertEqual(mode, 0o600)

        let today = try WorkoutBinary.run(["today"], environment: standIn.environment(key: nil))
        XCTAssertEqual(today.status, 0, today.stderr)
        XCTAssertTrue(today.stdout.contains("Sweet spot"), today.stdout)

        // A key file others may read is refused, and says how to mend it.
        chmod(file, 0o644)
        let open = try WorkoutBinary.run(["today"], environment: standIn.environment(key: nil))
        XCTAssertEqual(open.status, 1)
        XCTAssertTrue(open.stderr.contains("may be read by others: `chmod 600"), open.stderr)
    }

    func testAWrongKeyIsRefusedAtLoginAndKeptNowhere() throws {
        var environment = standIn.environment(key: nil)
        environment["WORKOUT"] = WorkoutBinary.binary
        let login = try WorkoutBinary.run(["-c", #"echo not-the-key | "$WORKOUT" intervals login"#],
                                          environment: environment, executable: "/bin/sh")
        XCTAssertEqual(login.status, 1)
        XCTAssertTrue(login.stderr.contains("refused the API key"), login.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: standIn.directory.appendingPathComponent("config/workout/intervals-icu-key").path))
    }

    func testNoKeySaysHowToSetOne() throws {
        let result = try WorkoutBinary.run(["today"], environment: standIn.environment(key: nil))
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "workout: no intervals.icu API key: run `workout intervals login`, or set INTERVALS_ICU_API_KEY\n")
        XCTAssertTrue(standIn.requests().isEmpty, "nothing is asked without a key")
    }

    /// Each status the service may answer is one line on standard error, without the key.
    func testEachStatusIsOneClearLine() throws {
        let expected: [(String, String)] = [
            ("401", "workout: intervals.icu refused the API key from $INTERVALS_ICU_API_KEY (401): check it on the site's Settings → Developer Settings, then `workout intervals login` or INTERVALS_ICU_API_KEY"),
            ("403", "workout: intervals.icu refused the API key from $INTERVALS_ICU_API_KEY (403)"),
            ("404", "workout: intervals.icu has no /api/v1/athlete/0/events (404): stand-in answers 404"),
            ("422", "workout: intervals.icu did not accept the GET (422): stand-in answers 422"),
            ("429", "workout: intervals.icu asks to slow down (429): try again in a minute"),
            ("500", "workout: intervals.icu failed to answer (500): try again later"),
            ("503", "workout: intervals.icu failed to answer (503): try again later"),
        ]
        for (mode, line) in expected {
            try standIn.answer(mode)
            let result = try workout(["today"])
            XCTAssertEqual(result.status, 1, mode)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertTrue(result.stderr.hasPrefix(line), "\(mode): \(result.stderr)")
            XCTAssertEqual(result.stdout, "")
            assertNoKey(result)
        }
    }

    func testASlowAnswerTimesOutAndNoServiceIsUnreachable() throws {
        try standIn.answer("slow")
        let started = Date()
        let slow = try workout(["today"], environment: ["INTERVALS_ICU_TIMEOUT": "1"])
        XCTAssertLessThan(Date().timeIntervalSince(started), 4.5, "the timeout did not end the wait")
        XCTAssertEqual(slow.status, 1)
        XCTAssertEqual(slow.stderr, "workout: intervals.icu (\(standIn.address)): no answer within 1 seconds\n")

        let closed = try workout(["today"], environment: ["INTERVALS_ICU_URL": "http://127.0.0.1:1"])
        XCTAssertEqual(closed.status, 1)
        XCTAssertTrue(closed.stderr.hasPrefix("workout: intervals.icu (http://127.0.0.1:1): cannot reach the service: "), closed.stderr)
        XCTAssertEqual(closed.stderr.split(separator: "\n").count, 1)
    }

    /// While a request is out, the process's arguments do not hold the key (it is in the
    /// file `login` wrote, and goes to libcurl as an option).
    func testTheKeyIsNeverAnArgument() throws {
        let keyFile = standIn.directory.appendingPathComponent("config/workout/intervals-icu-key")
        try FileManager.default.createDirectory(at: keyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: keyFile.path, contents: Data((IntervalsStandIn.key + "\n").utf8),
                                       attributes: [.posixPermissions: 0o600])
        try standIn.answer("slow")
        var arguments = ""
        var environment = standIn.environment(key: nil)
        environment["INTERVALS_ICU_TIMEOUT"] = "2"
        let result = try WorkoutBinary.run(["today"], environment: environment) { process, _ in
            if eventually({ !self.standIn.requests().isEmpty }) {
                arguments = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/cmdline", encoding: .utf8)) ?? ""
            }
            return Data()
        }
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(arguments.contains("today"), "the arguments were not read: \(arguments)")
        XCTAssertFalse(arguments.contains(IntervalsStandIn.key))
        assertNoKey(result)
    }
}
