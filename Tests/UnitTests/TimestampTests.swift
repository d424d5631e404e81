import Foundation
import XCTest
@testable import IntervalEngine

/// History timestamps are written and read without ICU (`Timestamp`).
final class TimestampTests: XCTestCase {
    // 2026-11-21T17:02:03Z
    let instant = Date(timeIntervalSince1970: 1_795_280_523)

    func testWritesAFixedOffset() {
        XCTAssertEqual(Timestamp.utc(instant, offset: 0), "2026-11-21T17:02:03+00:00")
        XCTAssertEqual(Timestamp.utc(instant, offset: 3600), "2026-11-21T18:02:03+01:00")
        XCTAssertEqual(Timestamp.utc(instant, offset: -(9 * 3600 + 30 * 60)), "2026-11-21T07:32:03-09:30")
        XCTAssertEqual(Timestamp.utc(Date(timeIntervalSince1970: 1_795_280_523.999), offset: 0),
                       "2026-11-21T17:02:03+00:00")
    }

    func testReadsWhatItWritesAndOtherOffsets() throws {
        XCTAssertEqual(Timestamp.date(from: "2026-11-21T17:02:03Z"), instant)
        XCTAssertEqual(Timestamp.date(from: "2026-11-21T18:02:03+01:00"), instant)
        XCTAssertEqual(Timestamp.date(from: "2026-11-21T07:32:03-09:30"), instant)
        XCTAssertEqual(Timestamp.date(from: "2024-02-29T00:00:00Z"), Date(timeIntervalSince1970: 1_709_164_800))
        for offset in [-43200, -3600, 0, 1800, 20700, 50400] {
            XCTAssertEqual(Timestamp.date(from: Timestamp.utc(instant, offset: offset)), instant, "offset \(offset)")
        }
        let local = Timestamp.local(instant)
        XCTAssertEqual(Timestamp.date(from: local), instant, local)
    }

    func testLocalFollowsTheCLibrarysTimeZone() {
        let saved = getenv("TZ").map { String(cString: $0) }
        defer {
            if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
            tzset()
        }
        setenv("TZ", "Asia/Kolkata", 1)
        tzset()
        XCTAssertEqual(Timestamp.local(instant), "2026-11-21T22:32:03+05:30")
        setenv("TZ", "UTC", 1)
        tzset()
        XCTAssertEqual(Timestamp.local(instant), "2026-11-21T17:02:03+00:00")
    }

    func testRefusesWhatIsNotAnInternetDateTime() {
        for text in ["", "2026-11-21", "2026-11-21T17:02:03", "2026-11-21 17:02:03Z", "2026-13-01T00:00:00Z",
                     "2026-02-30T00:00:00Z", "2026-11-21T24:00:00Z", "2026-11-21T17:02:03+0100",
                     "2026-11-21T17:02:03.5Z", "20x6-11-21T17:02:03Z", "2026-11-21T17:02:03+01:60"] {
            XCTAssertNil(Timestamp.date(from: text), text)
        }
    }
}
