import Foundation
import WorkoutValues
import XCTest
@testable import History
@testable import IntervalEngine

/// `history stats` over fixture histories whose answers were worked out by hand.
final class HistoryStatsTests: XCTestCase {
    /// Berlin's clocks go from 02:00 CET to 03:00 CEST on Sunday 29 March 2026. In local
    /// time these are seven days in a row, Friday 27 March to Thursday 2 April, across the
    /// change and the month's end; in UTC two of them fall on the day before (00:30 on
    /// the 29th is 23:30Z on the 28th, 00:15 on 1 April is 22:15Z on 31 March), which
    /// breaks the run into 27–28, 30–31 and 2 April.
    let acrossTheChange = [
        historyEntry("Tabata", started: "2026-03-27T23:30:00+01:00", work: 240),
        historyEntry("Tabata", started: "2026-03-28T23:45:00+01:00", work: 240),
        historyEntry("HIIT", started: "2026-03-29T00:30:00+01:00", work: 960),
        historyEntry("HIIT", started: "2026-03-30T07:00:00+02:00", work: 960),
        historyEntry("Tabata", started: "2026-03-31T23:59:00+02:00", work: 240),
        historyEntry("Tabata", started: "2026-04-01T00:15:00+02:00", work: 240),
        historyEntry("HIIT", started: "2026-04-02T06:00:00+02:00", work: 960),
    ]

    func day(_ text: String) -> LocalDay { LocalDay(text)! }

    func testAStreakAcrossADaylightSavingChangeAndAMonthsEnd() {
        withTimeZone("Europe/Berlin") {
            let stats = HistoryStats(entries: acrossTheChange, today: day("2026-04-02"))
            XCTAssertEqual(stats.currentStreak, 7)
            XCTAssertEqual(stats.longestStreak, 7)
            XCTAssertEqual(stats.days.map(\.day.text), ["2026-03-27", "2026-03-28", "2026-03-29", "2026-03-30",
                                                       "2026-03-31", "2026-04-01", "2026-04-02"])
            XCTAssertEqual(stats.days.map(\.sessions), [1, 1, 1, 1, 1, 1, 1])
            // Yesterday still counts (today may yet come); the day after, the run is over.
            XCTAssertEqual(HistoryStats(entries: acrossTheChange, today: day("2026-04-03")).currentStreak, 7)
            XCTAssertEqual(HistoryStats(entries: acrossTheChange, today: day("2026-04-04")).currentStreak, 0)
        }
        withTimeZone("UTC") {
            let stats = HistoryStats(entries: acrossTheChange, today: day("2026-04-02"))
            XCTAssertEqual(stats.days.map(\.day.text), ["2026-03-27", "2026-03-28", "2026-03-30", "2026-03-31",
                                                       "2026-04-02"])
            XCTAssertEqual(stats.days.map(\.sessions), [1, 2, 1, 2, 1])
            XCTAssertEqual(stats.currentStreak, 1)
            XCTAssertEqual(stats.longestStreak, 2)
        }
    }

    func testWeeksStartOnMondayAcrossTheChange() {
        withTimeZone("Europe/Berlin") {
            let report = HistoryReport(entries: acrossTheChange, limit: 0, weeks: 3,
                                       now: Timestamp.date(from: "2026-04-02T12:00:00+02:00")!)
            XCTAssertEqual(report.weeks.map(\.start), ["2026-03-30", "2026-03-23", "2026-03-16"])
            // Sunday 00:30 belongs to the week of the 23rd, Wednesday 00:15 to the 30th's.
            XCTAssertEqual(report.weeks.map(\.sessions), [4, 3, 0])
            XCTAssertEqual(report.weeks.map(\.workSeconds), [2400, 1440, 0])
            XCTAssertEqual(report.streakDays, 7)
        }
    }

    func testTheLongestStreakIsNotTheCurrentOne() {
        withTimeZone("Europe/Berlin") {
            // Eleven days in a row in January (the 31st into February too), a stopped
            // session without work that does not count, then the seven of the spring.
            var entries = (21...31).map { historyEntry("Old", started: "2026-01-\($0)T18:00:00+01:00") }
            entries.append(historyEntry("Old", started: "2026-02-01T18:00:00+01:00"))
            entries.append(historyEntry("Quit", started: "2026-02-02T18:00:00+01:00", completed: false, work: 0))
            entries += acrossTheChange
            let stats = HistoryStats(entries: entries, today: day("2026-04-02"))
            XCTAssertEqual(stats.longestStreak, 12)
            XCTAssertEqual(stats.currentStreak, 7)
            XCTAssertEqual(stats.sessions, 20)
            XCTAssertEqual(stats.completed, 19)
        }
    }

    func testPerRoutineFiguresAndScoresWithALowerBest() {
        withTimeZone("UTC") {
            let entries = [
                historyEntry("AMRAP", started: "2026-05-01T07:00:00Z", work: 600,
                             scores: [Score(name: "rounds", value: 5), Score(name: "best round", value: 95, lowerIsBetter: true)]),
                historyEntry("Tabata", started: "2026-05-02T07:00:00Z", completed: false, work: 120),
                historyEntry("AMRAP", started: "2026-05-03T07:00:00Z", work: 700,
                             scores: [Score(name: "rounds", value: 8), Score(name: "best round", value: 88, lowerIsBetter: true)]),
                historyEntry("AMRAP", started: "2026-05-05T07:00:00Z", completed: false, work: 300,
                             scores: [Score(name: "rounds", value: 6), Score(name: "best round", value: 91, lowerIsBetter: true)]),
                historyEntry("AMRAP", started: "2026-05-06T07:00:00Z", work: 10),
            ]
            let stats = HistoryStats(entries: entries, today: day("2026-05-06"))
            XCTAssertEqual(stats.routines.map(\.program), ["AMRAP", "Tabata"])
            let amrap = stats.routines[0]
            XCTAssertEqual(amrap.sessions, 4)
            XCTAssertEqual(amrap.completed, 3)
            XCTAssertEqual(amrap.workSeconds, 1610)
            XCTAssertEqual(amrap.last.text, "2026-05-06")
            XCTAssertEqual(amrap.scores, [
                HistoryStats.ScoreFigures(name: "rounds", best: 8, latest: 6, count: 3, lowerIsBetter: false),
                HistoryStats.ScoreFigures(name: "best round", best: 88, latest: 91, count: 3, lowerIsBetter: true),
            ])
            XCTAssertEqual(stats.routines[1].completed, 0)
            XCTAssertEqual(stats.json["routines"], .array([
                .object([("program", .string("AMRAP")), ("sessions", .integer(4)), ("completed", .integer(3)),
                         ("work_seconds", .number(1610)), ("last", .string("2026-05-06")),
                         ("scores", .object([
                            ("rounds", .object([("best", .number(8)), ("latest", .number(6)), ("count", .integer(3)),
                                                ("better", .string("higher"))])),
                            ("best round", .object([("best", .number(88)), ("latest", .number(91)), ("count", .integer(3)),
                                                    ("better", .string("lower"))])),
                         ]))]),
                .object([("program", .string("Tabata")), ("sessions", .integer(1)), ("completed", .integer(0)),
                         ("work_seconds", .number(120)), ("last", .string("2026-05-02")), ("scores", .object([]))]),
            ]))
            // --routine, --since and --until (local dates, both ends included).
            let filtered = HistoryStats(entries: entries, filter: HistoryStats.Filter(
                since: day("2026-05-03"), until: day("2026-05-05"), routine: "AMRAP"), today: day("2026-05-06"))
            XCTAssertEqual(filtered.sessions, 2)
            XCTAssertEqual(filtered.routines.first?.scores.first?.best, 8)
            XCTAssertEqual(filtered.routines.first?.scores.last?.best, 88)
            XCTAssertEqual(filtered.days.map(\.day.text), ["2026-05-03", "2026-05-05"])
        }
    }

    func testSpedUpSessionsAreLeftOutUnlessAsked() {
        withTimeZone("UTC") {
            let entries = [
                historyEntry("HIIT", started: "2026-05-01T07:00:00Z", work: 600),
                historyEntry("HIIT", started: "2026-05-02T07:00:00Z", work: 900, speed: 20,
                             scores: [Score(name: "rounds", value: 99)]),
            ]
            let stats = HistoryStats(entries: entries, today: day("2026-05-02"))
            XCTAssertEqual(stats.sessions, 1)
            XCTAssertEqual(stats.workSeconds, 600)
            XCTAssertEqual(stats.days.count, 1)
            XCTAssertEqual(stats.currentStreak, 1)
            XCTAssertEqual(stats.routines.first?.scores, [])
            XCTAssertEqual(stats.spedUpLeftOut, 1)
            let all = HistoryStats(entries: entries, filter: HistoryStats.Filter(includeSpedUp: true), today: day("2026-05-02"))
            XCTAssertEqual(all.sessions, 2)
            XCTAssertEqual(all.workSeconds, 1500)
            XCTAssertEqual(all.currentStreak, 2)
            XCTAssertEqual(all.routines.first?.scores.first?.best, 99)
            XCTAssertEqual(all.spedUpLeftOut, 0)
        }
    }

    func testTheJSONHasEveryFieldAndNoNonFiniteNumber() {
        let stats = withTimeZone("UTC") {
            HistoryStats(entries: [historyEntry("A", started: "2026-05-01T07:00:00Z", work: 30.1234)],
                         today: day("2026-05-01"))
        }
        let text = stats.json.text
        XCTAssertEqual(text, """
            {"sessions":1,"completed":1,"work_seconds":30.123,"elapsed":100,"streak":{"current":1,"longest":1},\
            "routines":[{"program":"A","sessions":1,"completed":1,"work_seconds":30.123,"last":"2026-05-01","scores":{}}],\
            "days":[{"date":"2026-05-01","sessions":1,"work_seconds":30.123}],"sped_up_left_out":0}
            """)
        let empty = HistoryStats(entries: [], today: day("2026-05-01")).json.text
        XCTAssertFalse(empty.contains("nan") || empty.contains("inf"), empty)
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(empty.utf8)))
    }

    func testLocalDays() {
        XCTAssertEqual(day("1970-01-01").number, 0)
        XCTAssertEqual(day("1970-01-01").weekday, 3, "a Thursday")
        XCTAssertEqual(day("2026-03-30").weekday, 0, "a Monday")
        XCTAssertEqual(day("2026-03-29").weekday, 6, "a Sunday")
        XCTAssertEqual(day("2026-04-01").monday.text, "2026-03-30")
        XCTAssertEqual(day("2024-02-29").advanced(by: 1).text, "2024-03-01")
        XCTAssertEqual(day("2026-12-31").advanced(by: 1).text, "2027-01-01")
        XCTAssertEqual(day("1969-12-31").number, -1)
        for text in ["2026-02-29", "2026-04-31", "2026-13-01", "2026-1-01", "26-01-01", "2026-01-01x", "", "２０２６-01-01"] {
            XCTAssertNil(LocalDay(text), text)
        }
        // Every day of four centuries comes back as itself.
        for number in stride(from: -146_097, to: 146_097, by: 1) {
            let date = LocalDay(number: number).date
            guard LocalDay(year: date.year, month: date.month, day: date.day).number == number else {
                return XCTFail("day \(number) is \(date)")
            }
        }
        withTimeZone("Europe/Berlin") {
            XCTAssertEqual(LocalDay(Timestamp.date(from: "2026-03-28T23:30:00Z")!).text, "2026-03-29")
            XCTAssertEqual(LocalDay(Timestamp.date(from: "2026-03-31T22:15:00Z")!).text, "2026-04-01")
        }
        withTimeZone("America/New_York") {
            XCTAssertEqual(LocalDay(Timestamp.date(from: "2026-03-28T03:30:00Z")!).text, "2026-03-27")
        }
    }
}
