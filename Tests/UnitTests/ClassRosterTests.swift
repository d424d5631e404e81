import ClassPublishing
import Display
import Foundation
import PastSessions
import WorkoutValues
import XCTest
@testable import History
@testable import IntervalEngine

/// The class of `run --mqtt` on the virtual clock: the participants' messages read
/// strictly, the roster's limits (one message a second kept, 256 participants), the time
/// in each zone, away after 30 s, the display's row and the history line. The broker and
/// the page are in Tests/SystemTests/ClassViewTests.swift.
final class ClassRosterTests: XCTestCase {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    func testMessagesAreReadStrictlyAndImplausibleValuesAreNone() {
        XCTAssertEqual(ParticipantMessage(bytes(#"{"name":"Ann","hr":142,"hr_zone":3,"power":210}"#)),
                       .reading(name: "Ann", hr: 142, zone: 3, power: 210))
        XCTAssertEqual(ParticipantMessage(bytes(#"{"hr":300,"hr_zone":9,"power":-5,"extra":[1]}"#)),
                       .reading(name: nil, hr: nil, zone: nil, power: nil))
        XCTAssertEqual(ParticipantMessage(bytes(#"{"hr":150.0,"power":null}"#)), .reading(name: nil, hr: 150, zone: nil, power: nil))
        XCTAssertEqual(ParticipantMessage([]), .gone)
        XCTAssertEqual(ParticipantMessage(bytes(#"{"name":"Ann","gone":true}"#)), .gone)
        for bad in [#"{"hr":"142"}"#, #"{"hr":142.5}"#, "[1]", #"{"hr":1e999}"#, #"{"name":3}"#, "{", #"{"hr":0x10}"#,
                    String(repeating: " ", count: 1025) + "{}"] {
            XCTAssertNil(ParticipantMessage(bytes(bad)), bad)
        }
        XCTAssertEqual(ParticipantMessage.shownName("  " + String(repeating: "x", count: 99)), String(repeating: "x", count: 40))
        XCTAssertNil(ParticipantMessage.shownName("   "))
    }

    func testAFloodingParticipantKeepsOneMessageASecond() {
        var roster = ParticipantRoster()
        var kept = 0
        // 100 messages a second for 10 s.
        for step in 0..<1000 {
            if roster.receive(id: "flood", payload: bytes(#"{"hr":150}"#), at: Double(step) / 100) == .kept { kept += 1 }
        }
        // The burst of 2, then one a second.
        XCTAssertTrue((10...12).contains(kept), "\(kept)")
        XCTAssertEqual(roster.participants["flood"]?.dropped, 1000 - kept)
        XCTAssertEqual(roster.dropped, 1000 - kept)
        // A sender at one a second with jitter loses nothing.
        var steady = ParticipantRoster()
        for second in 0..<60 {
            let jitter = second % 2 == 0 ? 0.04 : -0.04
            XCTAssertEqual(steady.receive(id: "a", payload: bytes(#"{"hr":120}"#), at: Double(second) + jitter), .kept)
        }
    }

    func testTheParticipantPast256IsIgnoredWithOneWarning() {
        var roster = ParticipantRoster()
        for index in 0..<256 {
            XCTAssertEqual(roster.receive(id: "p\(index)", payload: bytes("{}"), at: 0), .kept)
        }
        XCTAssertEqual(roster.receive(id: "p256", payload: bytes("{}"), at: 1), .firstIgnored)
        XCTAssertEqual(roster.receive(id: "p257", payload: bytes("{}"), at: 1), .ignored)
        XCTAssertEqual(roster.receive(id: "p3", payload: bytes(#"{"hr":99}"#), at: 1), .kept)
        XCTAssertEqual(roster.participants.count, 256)
        XCTAssertEqual(roster.ignored, 2)
        XCTAssertEqual(roster.receive(id: String(repeating: "x", count: 129), payload: bytes("{}"), at: 1), .refused)

        let warnings = Warnings()
        let shared = ClassRoster(topics: ClassTopics(prefix: "gym"), clock: { 5 }, warn: { warnings.add($0) })
        for index in 0...258 { shared.receive(topic: "gym/participants/p\(index)", payload: bytes("{}")) }
        XCTAssertEqual(warnings.all, ["mqtt: more than 256 participants on gym/participants/+; the others are ignored"])
    }

    /// The class page's feed hears each message kept, as `/class.json` lists the
    /// participant, and nothing of a flood's dropped messages, a refused one or an ignored
    /// participant.
    func testAWatcherHearsEachKeptMessageAndNothingElse() throws {
        var now = 10.0
        let clock = ManualClock()
        let shared = ClassRoster(topics: ClassTopics(prefix: "gym"), clock: { clock.value }, warn: { _ in })
        let heard = Warnings()
        shared.watch { heard.add($0) }
        func send(_ id: String, _ text: String) {
            clock.value = now
            shared.receive(topic: "gym/participants/\(id)", payload: bytes(text))
        }
        send("ann", #"{"name":"<b>Ann</b>","hr":142,"hr_zone":3,"power":210}"#)
        XCTAssertEqual(heard.all, [#"{"id":"ann","name":"<b>Ann</b>","hr":142,"hr_zone":3,"power":210,"zones":[0,0,0,0,0],"seen":0,"away":false,"gone":false,"kept":1,"dropped":0}"#])
        for _ in 0..<5 { send("ann", #"{"hr":150}"#) }
        XCTAssertEqual(heard.all.count, 2, "the burst's second is kept, the flood's rest dropped unheard")
        now += 1
        send("ann", "not JSON")
        send("", #"{"hr":150}"#)
        XCTAssertEqual(heard.all.count, 2, "refused messages are not heard")
        now += 1
        send("ann", "")
        let gone = try XCTUnwrap(heard.all.last)
        XCTAssertTrue(gone.contains(#""hr":null"#) && gone.contains(#""gone":true"#) && gone.contains(#""away":true"#), gone)
        XCTAssertTrue(shared.json().contains(#""kept":3"#), shared.json())
    }

    func testTimeInZoneAwayAndAveragesOnTheCoachsClock() throws {
        var roster = ParticipantRoster()
        var t = 100.0
        func send(_ text: String) { XCTAssertEqual(roster.receive(id: "ann", payload: bytes(text), at: t), .kept, text) }
        for _ in 0..<10 { send(#"{"name":"Ann","hr":120,"hr_zone":2,"power":100}"#); t += 1 }
        for _ in 0..<5 { send(#"{"name":"Ann","hr":170,"hr_zone":4,"power":300}"#); t += 1 }
        send(#"{"name":"Ann","hr":160,"hr_zone":4}"#)
        var ann = try XCTUnwrap(roster.participants["ann"])
        // Each reading's zone counts until the next: 10 s in zone 2, 5 in zone 4.
        XCTAssertEqual(ann.zoneSeconds, [0, 10, 0, 5, 0])
        XCTAssertEqual(ann.maxHR, 170)
        XCTAssertEqual(try XCTUnwrap(ann.hrAverage), 2210.0 / 16, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(ann.powerAverage), 2500.0 / 15, accuracy: 1e-9)
        XCTAssertFalse(ann.away(at: t + 29.9))
        XCTAssertTrue(ann.away(at: t + 30))
        // A gap over 10 s counts toward no zone.
        t += 20
        send(#"{"hr":161,"hr_zone":4}"#)
        XCTAssertEqual(roster.participants["ann"]?.zoneSeconds, [0, 10, 0, 5, 0])
        send("")
        ann = try XCTUnwrap(roster.participants["ann"])
        XCTAssertTrue(ann.gone)
        XCTAssertTrue(ann.away(at: t))
        XCTAssertEqual(ann.name, "Ann")
        XCTAssertEqual(roster.summaries.map(\.name), ["Ann"])
        XCTAssertEqual(roster.summaries.first?.maxHR, 170)
    }

    func testTheDisplaysRowEscapesNamesAndColoursHeartRatesByZone() {
        let band = ClassBand(entries: [
            ClassBand.Entry(name: "\u{1B}]0;pwned\u{7}Eve", hr: 181, zone: 5, power: 400, away: false),
            ClassBand.Entry(name: "Bob", hr: 120, zone: 2, power: nil, away: false),
            ClassBand.Entry(name: "Cy", hr: nil, zone: nil, power: nil, away: true),
        ])
        let line = band.line(width: 80, glyphs: .unicode)
        XCTAssertFalse(line.text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 7 }, line.text)
        XCTAssertTrue(line.text.contains("\\27]0;pwned…"), line.text)
        XCTAssertTrue(line.spans.contains { $0.text == "181" && $0.sgr == "1;31" }, "\(line.spans)")
        XCTAssertTrue(line.spans.contains { $0.text == "120" && $0.sgr == "1;34" }, "\(line.spans)")
        XCTAssertTrue(line.text.contains("Cy away"), line.text)
        // Too narrow for all: as many as fit, then how many more.
        let narrow = band.line(width: 30, glyphs: .unicode)
        XCTAssertTrue(narrow.text.contains("+"), narrow.text)
        XCTAssertLessThanOrEqual(narrow.width, 30)
    }

    func testTheHistoryLineKeepsTheParticipantsAndOldReadersSkipThem() throws {
        var entry = try XCTUnwrap(HistoryEntry(line: #"{"program":"P","file":"/f.lua","sha256":"","started":"2026-05-01T07:00:00Z","ended":"2026-05-01T07:10:00Z","completed":true,"elapsed":600,"segments_done":3,"segments":4,"work_seconds":300}"#))
        entry.participants = [ParticipantSummary(name: "Ann \"A\"\u{1B}", averageHR: 141.26, maxHR: 171, averagePower: 205.04),
                              ParticipantSummary(name: "Bob", averageHR: nil, maxHR: nil, averagePower: 180)]
        let text = entry.json.text
        XCTAssertTrue(text.contains(#""participants":[{"name":"Ann \"A\"\u001b","hr_avg":141.3,"hr_max":171,"power_avg":205"#), text)
        let back = try XCTUnwrap(HistoryEntry(line: text))
        XCTAssertEqual(back.participants.map(\.name), ["Ann \"A\"\u{1B}", "Bob"])
        XCTAssertEqual(back.participants.first?.maxHR, 171)
        XCTAssertNil(back.participants.last?.averageHR)
        // A line without them, and one whose field is not such an array.
        XCTAssertEqual(HistoryEntry(line: text.replacingOccurrences(of: #""participants":"#, with: #""future":"#))?.participants, [])
        XCTAssertNil(HistoryEntry(line: text.replacingOccurrences(of: #""name":"Bob""#, with: #""name":7"#)))
    }
}

/// A class whose strangers send the largest names and topics they may: the roster the
/// page is sent and the history line stay within what their readers take.
final class ClassRosterBoundsTests: XCTestCase {
    /// 👩‍👩‍👧‍👦: one character of 25 bytes.
    static let family = "\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}"

    /// 256 participants of 39 such characters in their name and 5 in their topic level
    /// (125 bytes) made a 245 KB history line, which the reader skipped as damaged (the
    /// session gone), and a 265 KB roster, past what a viewer of `/class/events` may fall
    /// behind (`FeedStream.limit`, 256 KiB): the page closed on every viewer.
    func testTheLargestNamesOfAFullClassFitTheRosterAndTheHistory() throws {
        var roster = ParticipantRoster()
        let name = String(repeating: Self.family, count: 39)
        for index in 0..<256 {
            let id = String(repeating: Self.family, count: 5) + "\(index)"
            let payload = Array(JSONValue.object([("name", .string(name + "\(index)")), ("hr", .integer(150)),
                                                  ("power", .integer(250))]).text.utf8)
            XCTAssertEqual(roster.receive(id: id, payload: payload, at: 0), .kept)
            XCTAssertEqual(roster.receive(id: id, payload: payload, at: 2), .kept)
        }
        XCTAssertTrue(roster.participants.values.allSatisfy { $0.name.utf8.count <= ParticipantMessage.longestNameBytes })
        let shared = ClassRoster(topics: ClassTopics(prefix: "gym"), clock: { 3 }, warn: { _ in })
        for person in roster.participants.values {
            shared.receive(topic: "gym/participants/" + person.id, payload: Array(#"{"name":"\#(name)","hr":150}"#.utf8))
        }
        // Half of what a viewer may fall behind: the roster and the readings after it.
        XCTAssertLessThan(shared.json().utf8.count, 128 * 1024)

        var entry = try XCTUnwrap(HistoryEntry(line: #"{"program":"P","file":"/f.lua","sha256":"","started":"2026-05-01T07:00:00Z","ended":"2026-05-01T07:10:00Z","completed":true,"elapsed":600,"segments_done":3,"segments":4,"work_seconds":300}"#))
        entry.participants = roster.summaries
        XCTAssertEqual(entry.participants.count, 256)
        let line = entry.json.text
        XCTAssertLessThan(line.utf8.count, HistoryLines.longest / 2, "half a line's bound: the rest of the line has room")
        XCTAssertEqual(HistoryEntry(line: line)?.participants.count, 256, "the line is read back, not skipped")
    }

    /// A name is cut at a character's end, never inside one.
    func testANameIsCutToItsBytesAtACharactersEnd() {
        let cut = ParticipantMessage.shownName(String(repeating: Self.family, count: 39))
        XCTAssertEqual(cut, String(repeating: Self.family, count: ParticipantMessage.longestNameBytes / 25))
        XCTAssertEqual(ParticipantMessage.shownName("Ann"), "Ann")
    }
}

private final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds = 0.0
    var value: Double {
        get { lock.withLock { seconds } }
        set { lock.withLock { seconds = newValue } }
    }
}

private final class Warnings: @unchecked Sendable {
    private let lock = NSLock()
    private var texts: [String] = []
    func add(_ text: String) { lock.withLock { texts.append(text) } }
    var all: [String] { lock.withLock { texts } }
}
