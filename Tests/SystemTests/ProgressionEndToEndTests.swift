import Foundation
import XCTest

/// The bundled routines that follow their own history, through the binary: three runs of
/// couch-to-5k with no `--set` go from week 1 day 1 to day 3, and `plan` says why.
extension EndToEndTests {
    func testCouchToFiveKMovesOnADayEachFinishedRunAndRepeatsAStoppedOne() throws {
        let data = try dataHome()
        let environment = ["XDG_DATA_HOME": data.path]
        func plan() throws -> [String] {
            let result = try workout(["plan", "couch-to-5k"], environment: environment)
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.lines
        }
        XCTAssertEqual(try plan()[1], "Week 1, day 1: 8 minutes of running in 8 runs")
        for day in 1...2 {
            let run = try workout(["run", "couch-to-5k", "--speed", "10000", "--no-bell", "--no-sound", "--json"],
                                  environment: environment)
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertTrue(run.lines.contains { $0.contains(#""event":"log""#) && $0.contains("Week 1, day \(day)") },
                          "run \(day):\n\(run.stdout)")
        }
        let third = try plan()
        XCTAssertEqual(third[1], "Week 1, day 3: 8 minutes of running in 8 runs")
        XCTAssertTrue(third.contains { $0.hasPrefix("  day ") && $0.contains("(from history: after W1D2; default 1)") },
                      third.joined(separator: "\n"))
        let run = try workout(["run", "couch-to-5k", "--speed", "10000", "--no-bell", "--no-sound", "--json"],
                              environment: environment)
        XCTAssertTrue(run.lines.first { $0.contains(#""event":"workout_start""#) }?
                        .contains(#""from_history":{"day":3,"week":1}"#) == true, run.stdout)
        XCTAssertEqual(try plan()[1], "Week 2, day 1: 9 minutes of running in 6 runs", "after day 3, a new week")
        // A run stopped early is the next one again.
        let stopped = try workout(["run", "couch-to-5k", "--no-bell", "--no-sound", "--json"], environment: environment) {
            self.signal(SIGTERM, $0, afterFirstLineOf: $1)
        }
        XCTAssertEqual(stopped.status, 143, stopped.stderr)
        let again = try plan()
        XCTAssertEqual(again[1], "Week 2, day 1: 9 minutes of running in 6 runs")
        XCTAssertTrue(again.contains { $0.contains("(from history: W2D1 was stopped early: again; default 1)") },
                      again.joined(separator: "\n"))
        // `--no-history` and `--set` leave the history aside.
        XCTAssertEqual(try workout(["plan", "couch-to-5k", "--no-history"], environment: environment).lines[1],
                       "Week 1, day 1: 8 minutes of running in 8 runs")
        XCTAssertEqual(try workout(["plan", "couch-to-5k", "--set", "week=5", "--set", "day=2"],
                                   environment: environment).lines[1],
                       "Week 5, day 2: 15 minutes of running in 3 runs")
    }
}
