import TestSupport
import XCTest
@testable import IntervalEngine

/// Cues: offsets from the start, from the end, and "half"; text or a function.
final class CueTests: XCTestCase {
    func testOffsetsFromStartEndAndHalf() throws {
        let harness = try Harness("""
            return workout { name = "Cues", work(5),
              segment { kind = "work", duration = 40, cues = {
                [0] = "go", [10] = "ten in", [-5] = "five left", half = "halfway",
                [-40] = "also the start" } } }
            """)
        XCTAssertEqual(harness.run().filter { $0.contains("cue") }, [
            "5 cue 2@0 go", "5 cue 2@0 also the start", "15 cue 2@10 ten in", "25 cue 2@20 halfway",
            "40 cue 2@35 five left",
        ])
    }

    func testFunctionCuesGetTheSegment() throws {
        let harness = try Harness("""
            return workout { name = "Fn",
              segment { kind = "work", duration = 30, name = "Row",
                        cues = { [-10] = function(seg) print(seg.name .. " " .. seg.elapsed .. " " .. seg.remaining) end } } }
            """)
        XCTAssertEqual(harness.run().filter { $0.contains("cue") || $0.contains("log") },
                       ["20 cue 1@20", "20 log Row 20 10"])
    }

    func testCueEventHasOffsetAndText() throws {
        let harness = try Harness("""
            return workout { name = "J", segment { kind = "work", duration = 4, cues = { half = "half" } } }
            """)
        harness.run()
        let cue = harness.events.first { $0.name == "cue" }!
        XCTAssertEqual(cue.json.text, #"{"event":"cue","t":2,"at":2,"late_ms":0,"index":1,"offset":2,"text":"half"}"#)
    }

    func testCuesFollowAnExtendedEnd() throws {
        let harness = try Harness("""
            return workout { name = "Ext",
              segment { kind = "work", duration = 20, cues = { [1] = function() extend(10) end, [-5] = "five left" } } }
            """)
        XCTAssertEqual(harness.run().filter { $0.contains("cue") || $0.contains("segment_end") },
                       ["1 cue 1@1", "25 cue 1@25 five left", "30 segment_end 1"])
    }
}
