import Display
import WorkoutCLI
import XCTest
@testable import IntervalEngine

/// The calendar heatmap's shades, layout and colours.
final class HistoryCalendarTests: XCTestCase {
    func testShadesFollowMinutesOfWork() {
        XCTAssertEqual([0, 1, 599, 600, 1199, 1200, 2399, 2400, 99_999].map(HistoryCalendar.level),
                       [0, 1, 1, 2, 2, 3, 3, 4, 4])
    }

    func testRowsAreWeekdaysColumnsAreWeeksAndTheFutureIsBlank() {
        let last = LocalDay("2026-04-01")!  // a Wednesday
        let work: [LocalDay: Double] = [LocalDay("2026-03-23")!: 3000, LocalDay("2026-03-29")!: 60,
                                        LocalDay("2026-04-01")!: 1300, LocalDay("2026-04-02")!: 3000]
        let lines = HistoryCalendar.lines(work: work, through: last, weeks: 2, glyphs: .unicode)
        XCTAssertEqual(lines.map(\.text), [
            "      Apr",  // no room for March: April starts in the second week
            "Mon █ · ", "Tue · · ", "Wed · ▓ ", "Thu · ", "Fri · ", "Sat · ", "Sun ░ ",
            "    · no work  ░ under 10 min  ▒ 10–20  ▓ 20–40  █ 40 min or more",
        ])
        // Coloured green by shade, no work dim; the colour goes only where colour is wanted.
        XCTAssertEqual(lines[1].spans[1], Span("█", "38;5;40"))
        XCTAssertEqual(lines[2].spans[1], Span("·", "2"))
        XCTAssertTrue(lines[1].rendered(color: true).contains("\u{1B}[38;5;40m█\u{1B}[0m"))
        XCTAssertFalse(lines[1].rendered(color: false).contains("\u{1B}"))
        XCTAssertEqual(HistoryCalendar.lines(work: work, through: last, weeks: 2, glyphs: .ascii)[1].text, "Mon # . ")
    }
}
