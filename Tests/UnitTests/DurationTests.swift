import XCTest
@testable import IntervalEngine

final class DurationTests: XCTestCase {
    func testEveryTextForm() throws {
        let cases: [(String, Double)] = [
            ("90", 90), ("90s", 90), ("1:30", 90), ("1:02:03", 3723), ("2m", 120), ("1m30s", 90),
            ("1h", 3600), ("1h5m", 3900), ("1h5m30s", 3930), ("0:05", 5), ("2.5", 2.5), ("1.5m", 90),
            (" 45s ", 45), ("5:00", 300), ("24:00:00", 86400), ("1:30.5", 90.5),
        ]
        for (text, seconds) in cases {
            XCTAssertEqual(try Duration.parse(text), seconds, text)
        }
    }

    func testNumbersWithinLimits() throws {
        XCTAssertEqual(try Duration.seconds(0.25), 0.25)
        XCTAssertEqual(try Duration.seconds(86400), 86400)
        XCTAssertThrowsError(try Duration.seconds(0)) { XCTAssertEqual($0 as? Duration.Problem, .notPositive) }
        XCTAssertThrowsError(try Duration.seconds(-1)) { XCTAssertEqual($0 as? Duration.Problem, .notPositive) }
        XCTAssertThrowsError(try Duration.seconds(.nan)) { XCTAssertEqual($0 as? Duration.Problem, .notFinite) }
        XCTAssertThrowsError(try Duration.seconds(.infinity)) { XCTAssertEqual($0 as? Duration.Problem, .notFinite) }
        XCTAssertThrowsError(try Duration.seconds(86400.5)) { XCTAssertEqual($0 as? Duration.Problem, .tooLong) }
    }

    func testMalformedText() {
        for text in ["", "abc", "1:75", "1:2", "1::30", "1:30:", "s", "m5", "5x", "5s5m", "1h1h", "-5", "1e3",
                     "inf", "nan", "1.2.3", "1:00:00:00", "5 m", ":30"] {
            XCTAssertThrowsError(try Duration.parse(text), text) {
                XCTAssertEqual($0 as? Duration.Problem, .malformed, text)
            }
        }
    }

    func testTextOutOfRange() {
        XCTAssertThrowsError(try Duration.parse("0")) { XCTAssertEqual($0 as? Duration.Problem, .notPositive) }
        XCTAssertThrowsError(try Duration.parse("0:00")) { XCTAssertEqual($0 as? Duration.Problem, .notPositive) }
        XCTAssertThrowsError(try Duration.parse("25h")) { XCTAssertEqual($0 as? Duration.Problem, .tooLong) }
    }
}
