import Foundation
import XCTest

/// `workout week PLAN`: the bundled plan's next seven days, decided without the network,
/// and `--publish` onto the stand-in's calendar twice without a duplicate.
final class IntervalsPlanTests: IntervalsStandInTestCase {
    /// This week's Monday, local: the plan is in its first week whatever today is.
    var monday: String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let today = calendar.startOfDay(for: Date())
        let back = (calendar.component(.weekday, from: today) + 5) % 7
        let date = calendar.date(byAdding: .day, value: -back, to: today)!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    func testWeekShowsSevenDaysWithoutTheNetwork() throws {
        let result = try workout(["week", "sweet-spot-block", "--start", monday])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines.first, "Four weeks of sweet spot, from \(monday) (week 1 of 4):")
        XCTAssertEqual(result.lines.count, 8, result.stdout)
        let rides = result.lines.filter { $0.contains("sweet-spot --set") }
        XCTAssertFalse(rides.isEmpty, result.stdout)
        for ride in rides { XCTAssertTrue(ride.hasSuffix("Sweet spot"), ride) }
        XCTAssertTrue(standIn.requests().isEmpty, "deciding the week asks the service nothing")

        let notMonday = try workout(["week", "sweet-spot-block", "--start", "2026-12-01"])
        XCTAssertEqual(notMonday.status, 1)
        XCTAssertEqual(notMonday.stderr, "workout: sweet-spot-block.lua: start must be a Monday (week 1's first day), got 2026-12-01, a Tuesday\n")
        let missing = try workout(["week", "no-such-plan"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.hasPrefix("workout: no-such-plan: no such plan; looked for a file, then in "), missing.stderr)
    }

    func testPublishingTwiceChangesTheEventsNeverAddsThemAgain() throws {
        let first = try workout(["week", "sweet-spot-block", "--start", monday, "--publish"])
        XCTAssertEqual(first.status, 0, first.stderr)
        let rides = first.lines.filter { $0.contains("sweet-spot --set") }.count
        XCTAssertEqual(first.lines.last, "Put \(rides) \(rides == 1 ? "workout" : "workouts") on intervals.icu.")
        let calendar = standIn.directory.appendingPathComponent("calendar.json")
        func events() throws -> [[String: Any]] {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: calendar)) as? [[String: Any]])
        }
        XCTAssertEqual(try events().count, rides)
        let event = try XCTUnwrap(try events().first)
        XCTAssertEqual(event["category"] as? String, "WORKOUT")
        XCTAssertEqual(event["type"] as? String, "Ride")
        XCTAssertEqual(event["name"] as? String, "Sweet spot")
        XCTAssertTrue((event["external_id"] as? String)?.hasPrefix("workout-sweet-spot-block-") == true)
        XCTAssertTrue((event["description"] as? String)?.contains("- Sweet spot 10m 88-93% 90rpm") == true, "\(event)")
        let request = try XCTUnwrap(standIn.requests().last)
        XCTAssertEqual(request["path"] as? String, "/api/v1/athlete/0/events/bulk")
        XCTAssertEqual((request["query"] as? [String: [String]])?["upsert"], ["true"])

        let second = try workout(["week", "sweet-spot-block", "--start", monday, "--publish"])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(try events().count, rides, "published twice, no duplicate")
        XCTAssertEqual(Set(try events().compactMap { $0["external_id"] as? String }).count, rides)
    }

    func testPublishingWithoutAKeySaysHow() throws {
        let result = try WorkoutBinary.run(["week", "sweet-spot-block", "--start", monday, "--publish"],
                                           environment: standIn.environment(key: nil))
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.hasSuffix("workout: no intervals.icu API key: run `workout intervals login`, or set INTERVALS_ICU_API_KEY\n"),
                      result.stderr)
        XCTAssertTrue(standIn.requests().isEmpty)
    }
}
