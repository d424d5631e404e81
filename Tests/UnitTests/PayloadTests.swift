import WorkoutValues
import TestSupport
import XCTest
@testable import IntervalEngine
@testable import LuaBridge

/// `info` is the segment's userInfo: the same Lua table on every fire, shared by every
/// repetition of a step.
final class PayloadTests: XCTestCase {
    func testTheSameTableComesBackOnEveryFire() throws {
        let harness = try Harness("""
            local info = { count = 0 }
            local seen = {}
            return workout { name = "Same",
              rounds(3, { segment { kind = "work", duration = 10, info = info,
                                    cues = { [5] = function(seg) seen[#seen + 1] = seg.info end } } }),
              on_segment_start = function(seg)
                seg.info.count = seg.info.count + 1
                seen[#seen + 1] = seg.info
              end,
              on_finish = function()
                local same = true
                for _, t in ipairs(seen) do same = same and rawequal(t, info) end
                print(#seen .. " " .. tostring(same) .. " " .. info.count)
              end,
            }
            """)
        XCTAssertEqual(harness.run().filter { $0.contains("log") }, ["30 log 6 true 3"])
    }

    func testRepetitionsShareStateAndTellRoundsApart() throws {
        let harness = try Harness("""
            return workout { name = "Shared",
              rounds(3, { work(10, "Push-ups", { total = 0 }) }),
              on_segment_start = function(seg)
                seg.info.total = seg.info.total + seg.round
                print(seg.round .. "/" .. seg.rounds .. " total " .. seg.info.total)
              end,
            }
            """)
        XCTAssertEqual(harness.run().filter { $0.contains("log") },
                       ["0 log 1/3 total 1", "10 log 2/3 total 3", "20 log 3/3 total 6"])
    }

    func testEventsShowThePayloadAsItIsNow() throws {
        let harness = try Harness("""
            return workout { name = "Now", rounds(2, { work(1, { n = 0 }) }),
              on_segment_end = function(seg) seg.info.n = seg.info.n + 1 end }
            """)
        harness.run()
        let infos = harness.events.compactMap { event -> JSONValue? in
            if case let .segmentStart(_, info) = event.kind { return info }
            return nil
        }
        XCTAssertEqual(infos, [.object([("n", .integer(0))]), .object([("n", .integer(1))])])
    }

    func testOutputsThatDoNotShowPayloadsDoNotConvertThem() throws {
        let harness = try Harness("return workout { name = \"P\", work(1, { n = 1 }) }",
                                  options: SessionOptions(bell: false, payloadsInEvents: false))
        harness.run()
        guard case let .segmentStart(_, info) = harness.events[1].kind else { return XCTFail("\(harness.trace)") }
        XCTAssertEqual(info, .null)
    }

    func testPayloadJSONHandlesEveryKindOfValue() throws {
        let routine = try load("""
            local info = { list = { 1, 2.5, "three", true }, empty = {}, fn = print, [7] = "seven" }
            info.self = info
            return workout { name = "J", work(1, info) }
            """)
        let json = routine.infoJSON(for: routine.timeline.segments[0])
        XCTAssertEqual(json["list"], .array([.integer(1), .number(2.5), .string("three"), .bool(true)]))
        XCTAssertEqual(json["empty"], .object([]))
        XCTAssertEqual(json["self"], .string("<cycle>"))
        XCTAssertEqual(json["7"], .string("seven"))
        guard case .string(let function)? = json["fn"] else { return XCTFail("fn is \(String(describing: json["fn"]))") }
        XCTAssertTrue(function.hasPrefix("function: 0x"), function)
    }
}
