import Foundation
import XCTest
@testable import IntervalEngine

/// The history's fast line reader agrees with JSONSerialization wherever it answers, and
/// leaves everything else to it.
final class FlatJSONTests: XCTestCase {
    /// FlatJSON's reading as a dictionary (the later of two equal keys wins).
    private func flat(_ text: String) -> [String: FlatJSON.Value]? {
        Array(text.utf8).withUnsafeBufferPointer(FlatJSON.object).map { fields in
            Dictionary(fields.map { ($0.key, $0.value) }) { $1 }
        }
    }

    /// What JSONSerialization makes of the text, in FlatJSON's terms (nil: not an object
    /// of flat values).
    private func foundation(_ text: String) -> [String: FlatJSON.Value]? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return nil }
        var fields: [String: FlatJSON.Value] = [:]
        for (key, value) in object {
            switch value {
            case let text as String: fields[key] = .string(text)
            case let number as NSNumber where String(cString: number.objCType) == "c": fields[key] = .bool(number.boolValue)
            case let number as NSNumber: fields[key] = .number(number.doubleValue)
            case is NSNull: fields[key] = .null
            default: return nil
            }
        }
        return fields
    }

    func testItReadsWhatTheWriterWrites() {
        let entry = HistoryEntry(program: "HIIT 20 · ✓", file: "/home/u/hiit.lua", sha256: String(repeating: "a", count: 64),
                                 started: "2026-11-21T18:02:03+01:00", ended: "2026-11-21T18:26:03+01:00", completed: false,
                                 elapsed: 1440.25, segmentsDone: 12, segments: 35, workSeconds: 480)
        let line = entry.json.text
        XCTAssertNotNil(flat(line), "the writer's lines take the fast path")
        XCTAssertEqual(flat(line), foundation(line))
        XCTAssertEqual(HistoryEntry(line: Substring(line)), entry)
    }

    func testWhereItAnswersItAgreesAndElsewhereItStepsAside() {
        let cases = [
            #"{}"#, #" { "a" : 1 , "b":true,"c":false,"d":null } "#, #"{"a":-0.5e+3}"#, #"{"a":1E2}"#, #"{"a":0}"#,
            #"{"a":"x","a":"y"}"#, #"{"a":1e400}"#, #"{"a":-1e-400}"#,
            // Not JSON, or not flat, or not for the fast path: nil, then Foundation decides.
            #"{"a":01}"#, #"{"a":1.}"#, #"{"a":.5}"#, #"{"a":+1}"#, #"{"a":-}"#, #"{"a":1e}"#, #"{"a":1}x"#,
            #"{"a":1,}"#, #"{,"a":1}"#, #"{"a" 1}"#, #"{"a":tru}"#, #"{"a":nul}"#, #"{"a":"x\"y"}"#, #"{"a":"x\u0041"}"#,
            "{\"a\":\"x\ty\"}", #"{"a":[1]}"#, #"{"a":{"b":1}}"#, #"[1]"#, #""a""#, "", "{", #"{"a":"unterminated}"#,
        ]
        for text in cases {
            if let fast = flat(text) {
                XCTAssertEqual(fast, foundation(text), text)
            }
        }
        for rejected in [#"{"a":01}"#, #"{"a":1.}"#, #"{"a":"x\"y"}"#, #"{"a":[1]}"#, "{\"a\":\"x\ty\"}", #"{"a":1}x"#] {
            XCTAssertNil(flat(rejected), rejected)
        }
        XCTAssertNil(Array([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]).withUnsafeBufferPointer(FlatJSON.object), "invalid UTF-8")
    }

    /// A line only Foundation reads (an escape) is still an entry; a line neither reads is
    /// damaged.
    func testTheFallbackReadsEscapedLines() {
        let entry = HistoryEntry(program: "Say \"hi\"\n", file: "/x.lua", sha256: "", started: "2026-11-21T18:02:03Z",
                                 ended: "2026-11-21T18:02:03Z", completed: true, elapsed: 1, segmentsDone: 1, segments: 1,
                                 workSeconds: 0)
        let line = entry.json.text
        XCTAssertNil(flat(line))
        XCTAssertEqual(HistoryEntry(line: Substring(line)), entry)
        XCTAssertNil(HistoryEntry(line: Substring(line.replacingOccurrences(of: #""elapsed":1"#, with: #""elapsed":01"#))))
    }
}
