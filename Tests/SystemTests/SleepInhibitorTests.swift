import Foundation
import XCTest

/// Keeping the computer awake: logind's inhibitor lock held during a real run and let
/// go at its end, however it ends. Tested against a logind of the project's own
/// (Fixtures/login_server.py) on a private bus, given to workout as the system bus.
final class SleepInhibitorTests: XCTestCase {
    var binary: String { WorkoutBinary.binary }

    /// What the fake logind logged, and what the shell script wrote to `report`.
    struct BusRun {
        var log: [String]
        var report: [String]
    }

    /// Runs `script` (sh) on a new bus with the fake logind on it (unless `logind` is
    /// false), `$WORKOUT` the binary with the bus as its system bus, `$DIR` a scratch
    /// directory, `$LOG` the fake's log.
    func onABus(logind: Bool = true, _ script: String) throws -> BusRun {
        let busRunner = try PrivateBus.runner()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("workout-logind-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dir = directory.path
        let server = fixtures.appendingPathComponent("login_server.py").path
        let start = logind ? PrivateBus.startServer(server, log: "\(dir)/log", in: dir) : "server="
        let whole = """
            DIR='\(dir)'; LOG="$DIR/log"; touch "$LOG"
            \(start)
            WORKOUT='\(binary)'
            export DBUS_SYSTEM_BUS_ADDRESS="$DBUS_SESSION_BUS_ADDRESS" XDG_DATA_HOME="$DIR/data"
            \(script)
            [ -n "$server" ] && kill $server
            exit 0
            """
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = nil
        let result = try spawn(busRunner, ["--", "/bin/sh", "-c", whole], environment: environment)
        XCTAssertNotEqual(result.status, PrivateBus.serverDidNotStart, "the fake logind did not start")
        func lines(_ name: String) -> [String] {
            ((try? String(contentsOfFile: "\(dir)/\(name)", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        return BusRun(log: lines("log"), report: lines("report"))
    }

    /// Polls the log (in the script) until it holds `text`, for at most 5 s.
    let waitFor = """
        waitfor() { n=0; until grep -q "$1" "$LOG"; do n=$((n + 1)); [ $n -gt 100 ] && return 1; sleep 0.05; done; }
        """

    func testTheLockIsHeldDuringARunAndLetGoAtItsEnd() throws {
        let routine = fixtures.appendingPathComponent("e2e.lua").path
        let outcome = try onABus("""
            \(waitFor)
            "$WORKOUT" run '\(routine)' --speed 10 --json --no-notify > "$DIR/out" 2> "$DIR/err" & workout=$!
            waitfor inhibit && echo "asked" >> "$DIR/report"
            grep -q released "$LOG" || echo "held while running" >> "$DIR/report"
            wait $workout; echo "exit $?" >> "$DIR/report"
            waitfor released && echo "let go" >> "$DIR/report"
            """)
        XCTAssertEqual(outcome.report, ["asked", "held while running", "exit 0", "let go"])
        XCTAssertEqual(outcome.log, ["inhibit sleep:idle workout block E2E is running", "released"])
    }

    /// `kill -9` gives workout no chance to let go: the kernel closes the lock for it.
    func testTheLockGoesWithTheProcessWhateverEndsIt() throws {
        let routine = fixtures.appendingPathComponent("e2e.lua").path
        let outcome = try onABus("""
            \(waitFor)
            "$WORKOUT" run '\(routine)' --json --no-notify > /dev/null 2>&1 & workout=$!
            waitfor inhibit && kill -9 $workout
            wait $workout; echo "exit $?" >> "$DIR/report"
            waitfor released && echo "let go" >> "$DIR/report"
            """)
        XCTAssertEqual(outcome.report, ["exit 137", "let go"])
    }

    func testAllowSleepAndDryRunsAskForNothing() throws {
        let routine = fixtures.appendingPathComponent("e2e.lua").path
        let outcome = try onABus("""
            "$WORKOUT" run '\(routine)' --speed 100 --json --no-notify --allow-sleep > /dev/null; echo "exit $?" >> "$DIR/report"
            "$WORKOUT" run '\(routine)' --dry-run > /dev/null; echo "exit $?" >> "$DIR/report"
            """)
        XCTAssertEqual(outcome.report, ["exit 0", "exit 0"])
        XCTAssertEqual(outcome.log, [])
    }

    /// A bus without logind (or no bus at all): the run is as it always was, not a word.
    func testWithoutLogindNothingHappens() throws {
        let routine = fixtures.appendingPathComponent("e2e.lua").path
        let outcome = try onABus(logind: false, """
            "$WORKOUT" run '\(routine)' --speed 100 --json --no-notify --no-sound > /dev/null 2> "$DIR/err"; echo "exit $?" >> "$DIR/report"
            cat "$DIR/err" >> "$DIR/report"
            DBUS_SYSTEM_BUS_ADDRESS=unix:path=/nonexistent "$WORKOUT" run '\(routine)' --speed 100 --json --no-notify --no-sound \\
              > /dev/null 2> "$DIR/err"; echo "exit $?" >> "$DIR/report"
            cat "$DIR/err" >> "$DIR/report"
            """)
        XCTAssertEqual(outcome.report, ["exit 0", "exit 0"])
    }
}
