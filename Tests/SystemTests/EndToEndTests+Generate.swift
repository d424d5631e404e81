import Foundation
import XCTest

/// Open-ended routines through the built binary: `plan --horizon`, `check`, and a dry
/// run that has to stop by itself.
extension EndToEndTests {
    func testPlanListsAGeneratorUpToTheHorizon() throws {
        let text = try workout(["plan", "best-round", "--horizon", "4"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertEqual(text.lines.first, "Best round — open-ended: the first 4 segments, 10:40")
        XCTAssertEqual(Array(text.lines.suffix(5)), [
            "1      0:00  prep     0:10    Get ready",
            "2      0:10  work     5:00    Round 1 — moves: 10 burpees, 15 squats, 20 sit-ups · target: go!",
            "3      5:10  rest     0:30    Rest",
            "4      5:40  work     5:00    Round 2 — moves: 10 burpees, 15 squats, 20 sit-ups · target: go!",
            "… and more: the list stops at --horizon 4",
        ])

        let json = try workout(["plan", "best-round", "--horizon", "3", "--json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let plan = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(plan["open_ended"] as? Bool, true)
        XCTAssertEqual(plan["complete"] as? Bool, false)
        XCTAssertEqual((plan["segments"] as? [Any])?.count, 3)
        XCTAssertEqual(plan["duration"] as? Double, 340)

        let defaultHorizon = try workout(["plan", "best-round", "--json"])
        let all = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(defaultHorizon.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((all["segments"] as? [Any])?.count, 1_000, "the default horizon is 1,000 segments")
    }

    func testPlanOfAGeneratorThatEndsIsComplete() throws {
        let json = try workout(["plan", "ladder", "--set", "cap=5m", "--json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let plan = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(plan["open_ended"] as? Bool, true)
        XCTAssertEqual(plan["complete"] as? Bool, true)
        let segments = try XCTUnwrap(plan["segments"] as? [[String: Any]])
        // 2:00 warm-up; rounds of 30 s work + a rest from 60 s down by 5 s while they fit in
        // 5:00 (90 + 85 + 80 = 255; a fourth, 75, would not); 3:00 cool-down.
        XCTAssertEqual(segments.map { $0["duration"] as? Double }, [120, 30, 60, 30, 55, 30, 50, 180])
        XCTAssertEqual(plan["duration"] as? Double, 555)
        let fixed = try workout(["plan", "tabata", "--json"])
        XCTAssertTrue(fixed.stdout.contains(#""open_ended":false,"complete":true"#), fixed.stdout)
    }

    func testADryRunOfANeverEndingRoutineStopsAtTheHorizonAndSaysSo() throws {
        let result = try workout(["run", "best-round", "--dry-run", "--json", "--horizon", "5"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "workout: best-round.lua is open-ended; the dry run stopped after 5 segments (--horizon N for more)\n")
        XCTAssertEqual(result.lines.filter { $0.contains(#""event":"segment_start""#) }.count, 5)
        XCTAssertTrue(result.lines.first?.contains(#""segments":null,"duration":null"#) == true, result.stdout)
        XCTAssertTrue(result.lines.contains { $0.contains(#""index":5,"count":null"#) }, result.stdout)
        XCTAssertTrue(result.lines.contains { $0.contains(#""text":"Round 2: 5:00 (best 5:00)""#) }, "the hook logs each round")
        XCTAssertTrue(result.lines.last?.contains(#""completed":false"#) == true, result.stdout)
    }

    func testADryRunWhoseHooksPauseOnEveryResumeStillEnds() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("workout-pause-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("stubborn.lua")
        try """
            return workout { name = "Stubborn", work(5),
              on_segment_start = function() pause() end, on_resume = function() pause() end }
            """.write(to: path, atomically: false, encoding: .utf8)
        let result = try workout(["run", path.path, "--dry-run", "--no-bell"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("the dry run paused again on each resume"), result.stderr)
        XCTAssertTrue(result.lines.last?.hasSuffix("stopped after 0:00, 0 segments done") == true, result.stdout)
    }

    func testHorizonMistakesAreUsageErrors() throws {
        let outside = try workout(["run", "best-round", "--horizon", "5"])
        XCTAssertEqual(outside.status, 64)
        XCTAssertTrue(outside.stderr.contains("--horizon goes with --dry-run"), outside.stderr)
        let zero = try workout(["plan", "best-round", "--horizon", "0"])
        XCTAssertEqual(zero.status, 64)
        XCTAssertTrue(zero.stderr.contains("--horizon must be a whole number from 1 to 1000000, got 0"), zero.stderr)
    }

    func testCheckRunsGeneratorsAndReportsTheirMistakes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("workout-gen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let bad = directory.appendingPathComponent("bad.lua")
        try """
            return workout {
              name = "Bad yield",
              generate(function()
                coroutine.yield(work(20))
                coroutine.yield("rest")
              end),
            }
            """.write(to: bad, atomically: false, encoding: .utf8)
        let check = try workout(["check", bad.path])
        XCTAssertEqual(check.status, 1)
        XCTAssertEqual(check.stderr, "workout: bad.lua:5: generate: yielded \"rest\", expected a step such as work(20) or rounds(…)\n")
        let plan = try workout(["plan", bad.path])
        XCTAssertEqual(plan.status, 1)
        XCTAssertTrue(plan.stdout.contains("1      0:00  work     0:20    Work"), "plan lists what came before:\n\(plan.stdout)")
        let run = try workout(["run", bad.path, "--dry-run"])
        XCTAssertEqual(run.status, 1, "an error event makes the run exit 1")
        XCTAssertTrue(run.stdout.contains("error in generate: bad.lua:5: generate: yielded \"rest\""), run.stdout)

        let good = try workout(["check", "best-round", "ladder"])
        XCTAssertEqual(good.status, 0, good.stderr)
        XCTAssertEqual(good.lines, [
            "ok  best-round: Best round, open-ended: the first 1000 segments, 45:49:40",
            "ok  ladder: Ladder, open-ended: 24 segments, 16:55 as planned",
        ])
        let list = try workout(["list"])
        XCTAssertTrue(list.lines.contains { $0.hasPrefix("  best-round   open     Best round") }, list.stdout)
    }
}
