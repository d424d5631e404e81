import TestSupport
import XCTest
@testable import IntervalEngine

/// Messages that help: an error without a position still names the file and line, and
/// absurd durations are refused in words.
final class MessageTests: XCTestCase {
    func testErrorsWithoutAPositionNameTheLine() {
        XCTAssertEqual(loadError("local x = 1\nerror(nil)"), "test.lua:2: (error object is a nil value)")
        XCTAssertEqual(loadError("\nerror({ code = 7 })"), "test.lua:2: (error object is a table value)")
        XCTAssertEqual(loadError("error(setmetatable({}, { __tostring = function() return 'custom' end }))"),
                       "test.lua:1: custom")
        XCTAssertEqual(loadError("local function f()\n  error('deep', 3)\nend\nf()"), "test.lua:2: deep")
        XCTAssertEqual(loadError("error('bare', 0)"), "test.lua:1: bare")
        XCTAssertEqual(loadError("local n = 1\ncoroutine.yield(n)"), "test.lua:2: attempt to yield from outside a coroutine")
        // Positions Lua gives are kept as they are.
        XCTAssertEqual(loadError("error('mine')"), "test.lua:1: mine")
        XCTAssertEqual(loadError("local t = nil\nlocal x = t.field"), "test.lua:2: attempt to index a nil value (local 't')")
    }

    func testAGeneratorsErrorWithoutAPositionNamesItsLine() throws {
        let routine = try load("""
            return workout { name = "G",
              generate(function()
                coroutine.yield(work(1))
                error({})
              end) }
            """)
        XCTAssertEqual(routine.expand(horizon: 10), ["test.lua:4: (error object is a table value)"])
    }

    func testAHooksErrorWithoutAPositionNamesItsLine() throws {
        let harness = try Harness("""
            return workout { name = "H", work(1),
              on_start = function()
                error(nil)
              end }
            """)
        harness.run()
        guard case let .error(message, hook, _)? = harness.events.first(where: { $0.name == "error" })?.kind else {
            return XCTFail("no error: \(harness.trace)")
        }
        XCTAssertEqual(message, "test.lua:3: (error object is a nil value)")
        XCTAssertEqual(hook, "on_start")
    }

    func testAbsurdDurationsAreRefusedInWords() {
        XCTAssertEqual(loadError("return workout { name = 'x', work(1e308) }"),
                       "test.lua:1: work: duration must be at most 24 hours, got 1e+308")
        XCTAssertEqual(loadError("return workout { name = 'x', work(-1e308) }"),
                       "test.lua:1: work: duration must be more than 0 seconds, got -1e+308")
        XCTAssertEqual(loadError("return workout { name = 'x', work(1e300 * 1e300) }"),
                       "test.lua:1: work: duration must be a finite number of seconds, got inf")
    }

    func testAUnitAfterALargerOneIsBelowSixty() {
        for text in ["1h99m", "1h60m", "2m90s", "1h5m60s", "1h90s"] {
            XCTAssertThrowsError(try Duration.parse(text), text)
        }
        XCTAssertEqual(try Duration.parse("1h59m59s"), 7199)
        XCTAssertEqual(try Duration.parse("90m"), 5400, "a first unit may be any size")
        XCTAssertEqual(try Duration.parse("90s"), 90)
        XCTAssertEqual(try Duration.parse("1m30.5s"), 90.5)
    }
}
