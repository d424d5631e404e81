import Foundation
import XCTest

/// `--set` through the built binary: overrides reach the routine, mistakes exit 64.
extension EndToEndTests {
    func testSetChangesTabataForRunPlanAndCheck() throws {
        let run = try workout(["run", "tabata", "--set", "rounds=4", "--set", "work=30s", "--dry-run", "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let works = run.lines.filter { $0.contains(#""event":"segment_start""#) && $0.contains(#""kind":"work""#) }
        XCTAssertEqual(works.count, 4 * 3, "4 rounds in each of 3 Tabatas")
        XCTAssertTrue(works.allSatisfy { $0.contains(#""duration":30"#) && $0.contains(#""rounds":4"#) }, works.joined(separator: "\n"))

        let plan = try workout(["plan", "tabata", "--set", "rounds=4", "--set", "work=30s"])
        XCTAssertEqual(plan.status, 0, plan.stderr)
        XCTAssertTrue(plan.lines.contains { $0.hasPrefix("  rounds    4     (default 8)") }, plan.stdout)
        XCTAssertTrue(plan.lines.contains { $0.hasPrefix("  work      30s   (default 20s)") }, plan.stdout)

        let json = try workout(["plan", "tabata", "--set", "work=30s", "--json"])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let work = try XCTUnwrap((object["params"] as? [[String: Any]])?.first { $0["name"] as? String == "work" })
        XCTAssertEqual(work["value"] as? Double, 30)
        XCTAssertEqual(work["default"] as? Double, 20)
        XCTAssertEqual(work["type"] as? String, "duration")

        let check = try workout(["check", "tabata", "--set", "sets=1"])
        XCTAssertEqual(check.status, 0, check.stderr)
    }

    func testSetMistakesAreUsageErrors() throws {
        let cases: [([String], String)] = [
            (["--set", "rounds"], "Error: --set rounds: expected NAME=VALUE, e.g. --set rounds=4"),
            (["--set", "rounds=many"], #"workout: tabata.lua: --set rounds=many: rounds must be a whole number (the default is 8), got "many""#),
            (["--set", "round=4"], "workout: tabata.lua: --set round=4: no such parameter (did you mean rounds?); tabata.lua takes recovery, rest, rounds, sets, work"),
        ]
        for (arguments, message) in cases {
            for command in ["run", "plan", "check"] {
                let result = try workout([command, "tabata"] + arguments)
                XCTAssertEqual(result.status, 64, "\(command) \(arguments)")
                XCTAssertEqual(result.stderr.split(separator: "\n").first.map(String.init), message, "\(command) \(arguments)")
                XCTAssertEqual(result.stdout, "")
            }
        }
    }

    func testListShowsParametersWithTheirDefaults() throws {
        let list = try workout(["list"])
        let tabata = try XCTUnwrap(list.lines.firstIndex { $0.hasPrefix("  tabata ") }, list.stdout)
        XCTAssertEqual(list.lines[tabata + 1].trimmingCharacters(in: .whitespaces),
                       "--set recovery=1:00  rest=10s  rounds=8  sets=3  work=20s")
    }
}
