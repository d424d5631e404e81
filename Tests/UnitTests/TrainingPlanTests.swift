import Foundation
import IntervalEngine
import LuaBridge
import PastSessions
import XCTest

/// A training plan in Lua (`PlanLoader`) and the bundled `sweet-spot-block`'s rules: a
/// little more each week, a lighter fourth week, a week repeated after two rides rated
/// RPE 9 or more, a missed ride slid to the first free day of its week.
final class TrainingPlanTests: XCTestCase {
    let calendar = Calendar.current

    /// Noon of a local date, `2026-11-30`.
    func day(_ text: String) -> Date {
        let parts = text.split(separator: "-").map { Int($0)! }
        return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12))!
    }

    func bundled() throws -> [UInt8] {
        try [UInt8](Data(contentsOf: packageRoot.appendingPathComponent("programs/plans/sweet-spot-block.lua")))
    }

    func ride(_ date: String, rpe: Int? = nil, speed: Double = 1) -> HistoryEntry {
        var entry = HistoryEntry(program: "Sweet spot", file: "/p/sweet-spot.lua", sha256: "", started: day(date),
                                 ended: day(date).addingTimeInterval(2400), completed: true, elapsed: 2400, segmentsDone: 5,
                                 segments: 5, workSeconds: 1200, speed: speed, scores: [], open: [], active: 2400, params: [])
        entry.rpe = rpe
        return entry
    }

    /// The days as `mon 2x10`, `tue rest`…
    func week(from first: String, past: [HistoryEntry] = [], source: [UInt8]? = nil) throws -> [String] {
        let (_, days) = try PlanLoader.days(source: source ?? bundled(), fileName: "plan.lua", directory: nil,
                                            from: day(first), past: past)
        return days.map { day in
            switch day.what {
            case .rest: return "\(day.weekday) rest"
            case .before: return "\(day.weekday) before"
            case .over: return "\(day.weekday) over"
            case let .routine(name, settings):
                let values = Dictionary(uniqueKeysWithValues: settings.map { ($0.name, $0.text) })
                return "\(day.weekday) \(name == "sweet-spot" ? "" : name)\(values["sets"] ?? "?")x\(values["minutes"] ?? "?")"
            }
        }
    }

    func testEachWeekALittleMoreAndTheFourthLighter() throws {
        XCTAssertEqual(try week(from: "2026-11-30"), ["mon rest", "tue 2x10", "wed rest", "thu 2x10", "fri rest", "sat 2x10", "sun rest"])
        XCTAssertEqual(try week(from: "2026-12-07").filter { !$0.hasSuffix("rest") }, ["tue 3x10", "thu 3x10", "sat 3x10"])
        XCTAssertEqual(try week(from: "2026-12-14").filter { !$0.hasSuffix("rest") }, ["tue 3x12", "thu 3x12", "sat 3x12"])
        XCTAssertEqual(try week(from: "2026-12-21").filter { !$0.hasSuffix("rest") }, ["tue 2x8", "thu 2x8", "sat 2x8"])
        XCTAssertEqual(try week(from: "2026-12-28"), Array(repeating: "over", count: 7).enumerated().map {
            "\(["mon", "tue", "wed", "thu", "fri", "sat", "sun"][$0.offset]) over"
        })
        XCTAssertEqual(try week(from: "2026-11-28").prefix(3), ["sat before", "sun before", "mon rest"])
    }

    func testTwoHardRidesRepeatTheWeek() throws {
        let hard = [ride("2026-12-08", rpe: 9), ride("2026-12-10", rpe: 10), ride("2026-12-12", rpe: 7)]
        XCTAssertEqual(try week(from: "2026-12-14", past: hard).filter { !$0.hasSuffix("rest") }, ["tue 3x10", "thu 3x10", "sat 3x10"])
        let one = [ride("2026-12-08", rpe: 9), ride("2026-12-10", rpe: 8), ride("2026-12-11", rpe: 10, speed: 20)]
        XCTAssertEqual(try week(from: "2026-12-14", past: one).filter { !$0.hasSuffix("rest") }, ["tue 3x12", "thu 3x12", "sat 3x12"],
                       "one hard ride, and one at --speed 20 that is no training")
    }

    func testAMissedRideSlidesWithinItsWeek() throws {
        // Wednesday of week 1, Tuesday's ride not done: it goes today.
        XCTAssertEqual(try week(from: "2026-12-02").prefix(5), ["wed 2x10", "thu 2x10", "fri rest", "sat 2x10", "sun rest"])
        // Done on Tuesday: nothing moves.
        XCTAssertEqual(try week(from: "2026-12-02", past: [ride("2026-12-01")]).prefix(5),
                       ["wed rest", "thu 2x10", "fri rest", "sat 2x10", "sun rest"])
        // Sunday with all three missed: one ride is left to do in the week, no more.
        XCTAssertEqual(try week(from: "2026-12-06").first, "sun 2x10")
    }

    func testAPlansMistakesNameTheFileAndTheDay() {
        let cases: [(String, String)] = [
            ("return 4", "plan.lua: a plan returns a table"),
            (#"return { start = "2026-11-30", week = function() end }"#, "plan.lua: the plan needs a name"),
            (#"return { name = "P", start = "2026-12-01", week = function() return {} end }"#,
             "plan.lua: start must be a Monday (week 1's first day), got 2026-12-01, a Tuesday"),
            (#"return { name = "P", start = "2026-11-31", week = function() return {} end }"#, "plan.lua: start must be a date"),
            (#"return { name = "P", start = "2026-11-30" }"#, "plan.lua: the plan's week must be a function"),
            (#"return { name = "P", start = "2026-11-30", week = function() return { tues = "hiit" } end }"#,
             "plan.lua: week 1: tues is not a day"),
            (#"return { name = "P", start = "2026-11-30", week = function() return { tue = { sets = 3 } } end }"#,
             "plan.lua: week 1 tue: a day's table names its routine first"),
            (#"return { name = "P", start = "2026-11-30", week = function() error("no luck") end }"#, "plan.lua:1: no luck"),
            (#"return { name = "P", start = "2026-11-30", weeks = 0, week = function() return {} end }"#,
             "plan.lua: weeks must be a whole number"),
        ]
        for (source, expected) in cases {
            XCTAssertThrowsError(try week(from: "2026-11-30", source: Array(source.utf8)), source) { error in
                XCTAssertTrue((error as? RoutineError)?.message.hasPrefix(expected) == true, "\(source): \(error)")
            }
        }
    }

    /// The example of docs/routines.md (its `lua plan` block) runs as the page says.
    func testTheDocsExamplePlanRuns() throws {
        let page = try String(contentsOf: packageRoot.appendingPathComponent("docs/routines.md"), encoding: .utf8)
        let start = try XCTUnwrap(page.range(of: "```lua plan\n"))
        let end = try XCTUnwrap(page.range(of: "\n```", range: start.upperBound..<page.endIndex))
        let source = Array(page[start.upperBound..<end.lowerBound].utf8)
        XCTAssertEqual(try week(from: "2026-11-30", source: source),
                       ["mon rest", "tue rest", "wed hiit?x?", "thu rest", "fri rest", "sat couch-to-5k?x?", "sun rest"])
        let (_, days) = try PlanLoader.days(source: source, fileName: "plan.lua", directory: nil, from: day("2026-12-07"),
                                            past: [ride("2026-12-04", rpe: 9), ride("2026-12-05", rpe: 10)])
        XCTAssertEqual(days[2].what, .routine("hiit", settings: [ParameterSetting(name: "rounds", text: "2")]),
                       "week 2 would be 3 rounds; two hard sessions ease it to 2")
    }

    func testARunawayPlanIsStoppedByTheLimits() {
        let source = #"return { name = "P", start = "2026-11-30", week = function() while true do end end }"#
        XCTAssertThrowsError(try week(from: "2026-11-30", source: Array(source.utf8))) { error in
            XCTAssertTrue("\(error)".contains("plan.lua"), "\(error)")
        }
    }
}
