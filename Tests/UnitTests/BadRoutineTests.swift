import Foundation
import TestSupport
import XCTest
@testable import IntervalEngine
@testable import LuaBridge

/// Every routine under Fixtures/bad fails to load with exactly the message on its first
/// line (`-- error: name.lua:3: …`): file, line, what was expected and what was given.
final class BadRoutineTests: XCTestCase {
    func testEveryBadRoutineGivesItsExactError() throws {
        let directory = fixtures.appendingPathComponent("bad")
        // `outside.lua` is a symbolic link out of the directory for `require` to refuse,
        // not a routine.
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".lua") && $0 != "outside.lua" }.sorted()
        XCTAssertGreaterThanOrEqual(names.count, 120)
        for name in names {
            let path = directory.appendingPathComponent(name).path
            let source = try String(contentsOfFile: path, encoding: .utf8)
            let firstLine = source.prefix { $0 != "\n" }
            guard firstLine.hasPrefix("-- error: ") else {
                XCTFail("\(name) has no '-- error: ' line")
                continue
            }
            let expected = String(firstLine.dropFirst("-- error: ".count))
            XCTAssertTrue(expected.hasPrefix(name + ":"), "\(name): the message must name the file")
            do {
                _ = try RoutineLoader.load(path: path)
                XCTFail("\(name) loaded")
            } catch {
                XCTAssertEqual(error.message, expected, name)
            }
        }
    }

    func testAMissingFileIsAClearError() {
        XCTAssertThrowsError(try RoutineLoader.load(path: "/nonexistent/hiit.lua")) {
            XCTAssertEqual(($0 as? RoutineError)?.message, "/nonexistent/hiit.lua: no such routine file")
        }
    }

    func testErrorsPointAtTheRoutinesOwnLineInsideHelpers() {
        // A helper function in the routine builds the step: the error names the helper's line.
        XCTAssertEqual(loadError("""
            local function interval(seconds)
              return work(seconds, "Interval")
            end
            return workout { name = "x", interval(30), interval(0) }
            """), "test.lua:2: work: duration must be more than 0 seconds, got 0")
    }
}
