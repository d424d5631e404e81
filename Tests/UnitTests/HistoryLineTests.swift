import Foundation
import PastSessions
import WorkoutValues
import XCTest
@testable import History
@testable import IntervalEngine

/// Reading history lines: what is a whole entry, what is damaged, and the JSON reader
/// behind it agreeing with Foundation's.
final class HistoryLineTests: XCTestCase {
    let whole = #"{"program":"P","file":"/f.lua","sha256":"","started":"2026-05-01T07:00:00Z","ended":"2026-05-01T07:10:00Z","completed":true,"elapsed":600,"segments_done":3,"segments":4,"work_seconds":300"#

    func line(_ extra: String = "") -> String { whole + extra + "}" }

    func testAWholeLineAndItsOptionalFields() throws {
        let old = try XCTUnwrap(HistoryEntry(line: line()))
        XCTAssertEqual(old.speed, 1, "a line from before speeds were kept ran at 1x")
        XCTAssertEqual(old.scores, [])
        XCTAssertEqual(old.ended.timeIntervalSince(old.started), 600)
        let new = try XCTUnwrap(HistoryEntry(line: line(#","speed":20,"scores":{"b":2,"a":1.5},"lower_is_better":["a"],"future":[{"x":null}]"#)))
        XCTAssertEqual(new.speed, 20)
        XCTAssertEqual(new.scores, [Score(name: "b", value: 2), Score(name: "a", value: 1.5, lowerIsBetter: true)])
        // Written back the same way.
        XCTAssertEqual(HistoryEntry(line: new.json.text), new)
        // Key order and white space do not matter.
        XCTAssertNotNil(HistoryEntry(line: #" { "segments" : 4 , "program":"P","file":"/f.lua","sha256":"","started":"2026-05-01T07:00:00Z","ended":"2026-05-01T07:10:00Z","completed":true,"elapsed":6e2,"segments_done":3.0,"work_seconds":300} "#))
    }

    func testOutOfRangeOrMistypedNumbersMakeALineDamaged() {
        let bad = [
            line(#","speed":0"#), line(#","speed":-1"#), line(#","speed":1e999"#), line(#","speed":20000"#),
            line(#","scores":{"x":1e999}"#), line(#","scores":{"x":1e16}"#), line(#","scores":{"x":"7"}"#),
            line(#","scores":[1]"#), line(#","lower_is_better":"x""#), line(#","speed":null"#),
            whole.replacingOccurrences(of: #""elapsed":600"#, with: #""elapsed":1e999"#) + "}",
            whole.replacingOccurrences(of: #""elapsed":600"#, with: #""elapsed":-1"#) + "}",
            whole.replacingOccurrences(of: #""segments":4"#, with: #""segments":4.5"#) + "}",
            whole.replacingOccurrences(of: #""segments":4"#, with: #""segments":1e300"#) + "}",
            whole.replacingOccurrences(of: #""work_seconds":300"#, with: #""work_seconds":"300""#) + "}",
            whole.replacingOccurrences(of: #""completed":true"#, with: #""completed":1"#) + "}",
            whole.replacingOccurrences(of: "2026-05-01T07:00:00Z", with: "2026-02-30T07:00:00Z") + "}",
            whole.replacingOccurrences(of: #","segments":4"#, with: "") + "}",
            whole, whole + "}}", whole + "} x", "[" + whole + "}]", "",
        ]
        for text in bad {
            XCTAssertNil(HistoryEntry(line: text), text)
        }
    }

    func testTheReaderAgreesWithFoundation() throws {
        let texts = [
            #"{"a":"plain","b":"esc \" \\ \/ \b \f \n \r \t","c":"\u00e9\u20ac\ud83d\ude00","d":"é€😀"}"#,
            #"[0,-0,1.5,-2.25e-3,1E+2,123456789012345678,0.1,1e-7]"#,
            #"{"nested":{"deeper":[true,false,null,{}],"empty":[]}}"#,
            #"  "just a string"  "#,
        ]
        for text in texts {
            let ours = try XCTUnwrap(JSONReader.value(text), text)
            let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
            XCTAssertEqual(ours, Self.value(theirs), text)
        }
        for text in [#"{"a":1,}"#, #"[1 2]"#, #"{"a"}"#, "01", "1.", ".5", "-", "1e", "+1", "tru", "nul", #""\x""#,
                     #""\ud83d""#, #""\ude00x""#, "\"tab\there\"", "\"open", "{", "[", #"{"a":1}{"#, "NaN", "Infinity"] {
            XCTAssertNil(JSONReader.value(text), text)
        }
        // Invalid UTF-8 inside a string.
        let invalid: [UInt8] = [0x22, 0xC3, 0x28, 0x22]
        XCTAssertNil(invalid.withUnsafeBufferPointer { JSONReader.value($0) })
        // Deep nesting is refused, not followed.
        XCTAssertNil(JSONReader.value(String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)))
    }

    func testJSONTextEscapesEveryControlCharacterC1Included() {
        // A name or a printed line reaches terminals as JSON too: CSI (U+009B) must not.
        XCTAssertEqual(JSONValue.string("a\u{9B}2J\u{1B}\u{7F}\"\\é€").text, #""a\u009b2J\u001b\u007f\"\\é€""#)
        XCTAssertEqual(JSONValue.string("plain text").text, #""plain text""#)
        XCTAssertEqual(JSONReader.value(JSONValue.string("a\u{9B}\u{85}b").text), .string("a\u{9B}\u{85}b"))
    }

    /// Foundation's objects as a `JSONValue` (keys sorted: its dictionaries have no order).
    static func value(_ object: Any) -> JSONValue {
        switch object {
        case let text as String: return .string(text)
        case let number as NSNumber where String(cString: number.objCType) == "c": return .bool(number.boolValue)
        case let number as NSNumber: return .number(number.doubleValue)
        case let array as [Any]: return .array(array.map(value))
        case let dictionary as [String: Any]:
            return .object(dictionary.keys.sorted().map { ($0, value(dictionary[$0]!)) })
        default: return .null
        }
    }
}
