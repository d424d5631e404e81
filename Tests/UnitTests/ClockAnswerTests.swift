import ClassFollowing
import IntervalEngine
import XCTest

/// What a follower takes of the numbers on the coach's topics: each checked as `--speed`
/// and the coach's times are, whoever published them.
final class ClockAnswerTests: XCTestCase {
    func answer(_ text: String) -> ClockAnswer { ClockAnswer.read(Array(text.utf8), id: "ann-1") }

    func testAnAnswerOutOfRangeIsBadNotASample() {
        XCTAssertEqual(answer(#"{"id":"ann-1/3","sent":5,"t":12.5,"speed":2}"#), .answer(number: 3, t: 12.5, speed: 2))
        for bad in [#""t":-1e12,"speed":1"#, #""t":1e300,"speed":1"#, #""t":1,"speed":1e999"#, #""t":1,"speed":0.001"#,
                    #""t":1,"speed":20000"#, #""t":1,"speed":0"#, #""t":"1","speed":1"#, #""t":1"#] {
            guard case .bad = answer(#"{"id":"ann-1/3","sent":5,"# + bad + "}") else { return XCTFail(bad) }
        }
        for notOurs in [#"{"id":"bob-1/3","t":-1e12,"speed":1}"#, "not json", #"{"id":"ann-1/x","t":1,"speed":1}"#,
                        #"{"id":"ann-1/3","t":1,"speed":1,"pad":"\#(String(repeating: "x", count: 600))"}"#] {
            XCTAssertEqual(answer(notOurs), .notOurs, notOurs)
        }
    }

    /// The offset itself never takes such a sample, whoever hands it one.
    func testTheOffsetTakesNoTimeOrSpeedNoCoachHas() {
        var offset = ClockOffset()
        offset.add(.init(sent: 10, coach: -1e12, received: 10.001, speed: 1))
        offset.add(.init(sent: 10, coach: 5, received: 10.001, speed: .infinity))
        offset.add(.init(sent: 10, coach: 5, received: 10.001, speed: 1e5))
        offset.add(.init(sent: 10, coach: .nan, received: 10.001, speed: 1))
        XCTAssertEqual(offset.count, 0)
        XCTAssertNil(offset.origin)
        offset.add(.init(sent: 10, coach: 5, received: 10.002, speed: 1))
        XCTAssertEqual(offset.origin!, 5.001, accuracy: 1e-9)
    }

    /// A state's speed outside `--speed`'s range is the default 1, and its times outside the
    /// coach's are none; a `t` that is not one makes no state.
    func testAStatesNumbersAreCheckedToo() throws {
        let state = try XCTUnwrap(CoachState(Array(#"{"phase":"running","segment":1,"t":3,"left":-5,"deadline":1e999,"duration":4,"speed":1e999}"#.utf8)))
        XCTAssertEqual(state.speed, 1)
        XCTAssertNil(state.left)
        XCTAssertNil(state.deadline)
        XCTAssertEqual(state.duration, 4)
        XCTAssertNil(CoachState(Array(#"{"phase":"running","segment":1,"t":-1e12}"#.utf8)))
    }
}
