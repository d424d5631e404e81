import ClassFollowing
@testable import ClassPublishing
import IntervalEngine
import WorkoutValues
import TestSupport
import XCTest

/// `workout follow`'s arithmetic and its timeline from data, on the virtual clock.
final class FollowingTests: XCTestCase {
    /// The best round trip wins; the coach's clock is read at its middle.
    func testTheShortestRoundTripPlacesTheCoachsClock() {
        var offset = ClockOffset()
        // Coach's clock read 0 at local 100 s; answers leave it at the middle of each trip.
        offset.add(.init(sent: 110, coach: 10.05, received: 110.2, speed: 1))   // slow way back: 50 ms off
        offset.add(.init(sent: 111, coach: 11.001, received: 111.002, speed: 1)) // 2 ms trip
        offset.add(.init(sent: 112, coach: 12.0, received: 111.9, speed: 1))     // back before it left: not one
        XCTAssertEqual(offset.count, 2)
        XCTAssertEqual(offset.origin!, 100, accuracy: 1e-9)
        XCTAssertEqual(offset.uncertainty!, 0.001, accuracy: 1e-9)
        XCTAssertEqual(offset.coachTime(atLocal: 130)!, 30, accuracy: 1e-9)
        XCTAssertTrue(offset.isWithin(0.004))
        XCTAssertFalse(offset.isWithin(0.0005))
        XCTAssertFalse(ClockOffset().isWithin(1), "no sample says nothing of the coach's clock")
        var fast = ClockOffset()
        fast.add(.init(sent: 10, coach: 40, received: 10, speed: 4))
        XCTAssertEqual(fast.origin!, 0, accuracy: 1e-9, "at speed 4 the coach's 40 s took 10 real seconds")
    }

    static let plan = #"{"name":"Class","duration":7,"segments":[{"index":1,"start":0,"duration":4,"kind":"work","name":"Hard","cues":[{"at":1,"text":"Go"}]},{"index":2,"start":4,"duration":3,"kind":"rest","name":"Easy"}]}"#

    func testATimelineFromDataIsARoutineWithoutCode() throws {
        let routine = try FollowedTimeline.routine(Array(Self.plan.utf8), source: "gym/timeline")
        XCTAssertEqual(routine.name, "Class")
        XCTAssertEqual(routine.timeline.segments.map(\.name), ["Hard", "Easy"])
        XCTAssertEqual(routine.timeline.duration, 7)
        for bad in ["return workout {}", #"{"segments":[{"kind":"work"}]}"#, #"{"name":"x"}"#, #"{"too_large":true}"#] {
            XCTAssertThrowsError(try FollowedTimeline.routine(Array(bad.utf8), source: "gym/timeline"), bad) { error in
                XCTAssertTrue((error as? FollowError)?.message.hasPrefix("gym/timeline: ") ?? false)
            }
        }
        let sounding = #"{"name":"S","countdown":1,"sounds":{"countdown":"pause","finish":null,"start":"nope","kinds":{"work":null,"rest":"pip"}},"segments":[]}"#
        let scheme = try FollowedTimeline.routine(Array(sounding.utf8), source: "t").sounds
        XCTAssertEqual(scheme.countdown?.name, "pause")
        XCTAssertNil(scheme.finish)
        XCTAssertEqual(scheme.start?.name, "start", "an unknown name keeps the default")
        XCTAssertEqual(scheme.start(of: "work"), nil)
        XCTAssertEqual(scheme.start(of: "rest")?.name, "pip")
        let huge = [UInt8](repeating: UInt8(ascii: " "), count: FollowedTimeline.largest + 1)
        XCTAssertThrowsError(try FollowedTimeline.routine(huge, source: "t"))
    }

    /// The coach's whole segment crosses as data: its round x of n and block, its info
    /// (text and targets, what the display and the trainer read) and whether it is open
    /// with its cap; encoded by the coach's `writePlanJSON(forFollowers:)`, decoded by the
    /// follower into a routine the snapshot reads as the coach's.
    func testTheWholeSegmentCrossesAsData() throws {
        let coach = try load("""
            return workout { name = "Full", countdown = 0,
              rounds(2, { work(30, "Push", { text = "Elbows in", watts = 250, hr = { 140, 160 } }) }, { name = "Main" }),
              work { open = true, name = "Max", cap = 90, expect = 45 }, rest(10) }
            """)
        var published = ""
        coach.writePlanJSON(forFollowers: true) { published += $0 }
        let follower = try FollowedTimeline.routine(Array(published.utf8), source: "gym/timeline")
        let segments = follower.timeline.segments
        XCTAssertEqual(segments.map(\.name), ["Push", "Push", "Max", "Rest"])
        XCTAssertEqual(segments.map(\.round), [1, 2, nil, nil])
        XCTAssertEqual(segments.map(\.rounds), [2, 2, nil, nil])
        XCTAssertEqual(segments.map(\.block), ["Main", "Main", nil, nil])
        XCTAssertEqual(segments.map { $0.open }, [nil, nil, OpenEnd(cap: 90, expect: 45), nil])
        XCTAssertEqual(segments[2].duration, 45, "an open segment is planned as its expected length")
        XCTAssertEqual(follower.infoJSON(for: segments[0]).text, coach.infoJSON(for: coach.timeline.segments[0]).text)
        XCTAssertEqual(InfoText.summary(follower.infoJSON(for: segments[0])),
                       InfoText.summary(coach.infoJSON(for: coach.timeline.segments[0])))
        XCTAssertEqual(follower.infoJSON(for: segments[2]), .null)
        // The follower's snapshot shows what the coach's does: round, info, the trainer's target.
        let session = Session(routine: follower, scheduler: VirtualClock())
        session.start()
        let snapshot = session.snapshot()
        XCTAssertEqual(snapshot.current?.segment.round, 1)
        XCTAssertEqual(snapshot.current?.segment.rounds, 2)
        XCTAssertEqual(StatePayload.targetWatts(snapshot, ftp: nil), 250)
    }

    /// The coach's own sounds cross as names only (`sounds.own`), never as files: the
    /// follower plays its built-in sounds there and says so once, the names bounded and
    /// escaped; a coach with built-in sounds only gives no note.
    func testTheCoachsOwnSoundsAreNamedAndTheFollowerSaysSo() throws {
        let coach = try load("""
            return workout { name = "Own", countdown = 0,
              sounds = { work = "gong.ogg", rest = { file = "bell.wav", volume = 0.5 }, finish = { hz = 440, ms = 200 } },
              work(5), rest(5) }
            """)
        var published = ""
        coach.writePlanJSON(forFollowers: true) { published += $0 }
        XCTAssertTrue(published.contains(#""own":{"files":["bell.wav","gong.ogg"],"notes":true}"#), published)
        let read = try FollowedTimeline.read(Array(published.utf8), source: "gym/timeline")
        XCTAssertEqual(read.note, "the coach's routine plays sounds of its own (bell.wav, gong.ogg, its own notes): "
                       + "a follower never receives sound files, and plays its built-in sounds in their place")
        XCTAssertEqual(read.routine.sounds.start(of: "work")?.name, "go", "the default in its place")
        XCTAssertEqual(read.routine.sounds.finish?.name, "finish")

        var plain = ""
        try load(#"return workout { name = "Plain", sounds = { rest = false }, work(5) }"#)
            .writePlanJSON(forFollowers: true) { plain += $0 }
        XCTAssertNil(try FollowedTimeline.read(Array(plain.utf8), source: "t").note)

        let many = (0..<9).map { #""f\#($0)\u001b[31m.ogg""# }.joined(separator: ",")
        let hostile = #"{"name":"H","sounds":{"own":{"files":["# + many + #"],"notes":false}},"segments":[]}"#
        let note = try XCTUnwrap(FollowedTimeline.read(Array(hostile.utf8), source: "t").note)
        XCTAssertTrue(note.contains(#"f0\27[31m.ogg, f1\27[31m.ogg"#), note)
        XCTAssertTrue(note.contains(", 4 more)"), note)
        XCTAssertFalse(note.contains("\u{1B}"), "no escape sequence reaches a terminal")
    }

    /// What a follower takes of each field is bounded, and a field out of bounds is left
    /// out as if the coach had not sent it: never an error, never a larger thing kept.
    func testTheSegmentsFieldsAreBounded() throws {
        func segment(_ fields: String) throws -> Segment {
            let plan = #"{"name":"B","segments":[{"kind":"work","name":"S","duration":10,"# + fields + "}]}"
            return try XCTUnwrap(FollowedTimeline.routine(Array(plan.utf8), source: "t").timeline.segments.first)
        }
        func info(_ fields: String) throws -> JSONValue {
            let routine = try FollowedTimeline.routine(Array(#"{"name":"B","segments":[{"kind":"work","name":"S","duration":10,"#
                .utf8) + Array(fields.utf8) + Array("}]}".utf8), source: "t")
            return routine.infoJSON(for: routine.timeline.segments[0])
        }
        XCTAssertEqual(try info(#""info":{"text":"ok"}"#), .object([("text", .string("ok"))]))
        XCTAssertEqual(try info(#""info":"just text""#), .string("just text"))
        let long = String(repeating: "x", count: FollowedTimeline.largestInfo)
        XCTAssertEqual(try info(#""info":{"text":""# + long + #""}"#), .null, "over 4 KiB")
        XCTAssertEqual(try info(#""info":{"a":{"b":{"c":{"d":{"e":1}}}}}"#), .null, "five levels deep")
        XCTAssertEqual(try info(#""info":{"a":{"b":{"c":{"d":1}}}}"#).text, #"{"a":{"b":{"c":{"d":1}}}}"#)
        XCTAssertEqual(try info(#""info":null"#), .null)
        XCTAssertEqual(try segment(#""round":2,"rounds":3,"block":"B""#).round, 2)
        for bad in [#""round":4,"rounds":3"#, #""round":0,"rounds":3"#, #""round":1.5,"rounds":3"#,
                    #""round":"1","rounds":3"#, #""round":1,"rounds":1e9"#, #""round":1"#] {
            let read = try segment(bad)
            XCTAssertNil(read.round, bad)
            XCTAssertNil(read.rounds, bad)
        }
        XCTAssertEqual(try segment(#""round":1,"rounds":2,"block":""# + long + #"""#).block, nil, "a block name over 1000 bytes")
        XCTAssertEqual(try segment(#""open":{"cap":null,"expect":20}"#).open, OpenEnd(cap: nil, expect: 20))
        XCTAssertEqual(try segment(#""open":{"cap":30}"#).open, OpenEnd(cap: 30, expect: nil))
        for bad in [#""open":{"cap":-1}"#, #""open":{"cap":"30"}"#, #""open":{"cap":1e300}"#, #""open":true"#, #""open":null"#] {
            XCTAssertNil(try segment(bad).open, bad)
        }
    }

    /// A follower joining at the coach's 5.5 s (segment 2, 1.5 s left) skips to it and
    /// ends it on the coach's moment; the coach's pause and remaining are taken as they are.
    func testAlignmentPutsTheSessionOnTheCoachsSegmentAndMoment() throws {
        let routine = try FollowedTimeline.routine(Array(Self.plan.utf8), source: "t")
        let clock = VirtualClock()
        clock.advance(by: 5.5)
        let session = Session(routine: routine, scheduler: clock)
        session.start()
        let coach = CoachState(phase: .running, segment: 2, left: 1.5, t: 5.5, deadline: 7, duration: 3)
        let steps = CoachAlignment.align(session, to: coach)
        XCTAssertEqual(steps.first, .next)
        XCTAssertEqual(session.segment.index, 2)
        XCTAssertEqual(session.segmentDeadline, 7, accuracy: 1e-9)
        XCTAssertEqual(session.segment.duration, 3, "its length kept: its cues stay on the coach's moments")
        XCTAssertEqual(CoachAlignment.align(session, to: coach), [], "in step: nothing to do")
        clock.advance(by: 0.5)
        CoachAlignment.align(session, to: CoachState(phase: .paused, segment: 2, left: 0.75, t: 6, deadline: nil))
        XCTAssertEqual(session.state, .paused)
        XCTAssertEqual(session.remainingInSegment, 0.75, accuracy: 1e-9)
        // The coach's next boundary, heard just before the follower's own timer: left to the timer.
        CoachAlignment.align(session, to: CoachState(phase: .running, segment: 2, left: 0.75, t: 6, deadline: 6.75, duration: 3))
        XCTAssertEqual(CoachAlignment.align(session, to: CoachState(phase: .running, segment: 3, left: 3, t: 6.74,
                                                                    deadline: 9.75, duration: 3)), [])
    }

    func testParticipantNamesAreTopicSafe() {
        XCTAssertNil(ParticipantName.check("ann-2.b_c"))
        XCTAssertNil(ParticipantName.check("Zoë"))
        for bad in ["", "a/b", "a+b", "#", "a b", "\u{1b}[31m", String(repeating: "x", count: 33)] {
            XCTAssertNotNil(ParticipantName.check(bad), bad)
        }
    }
}

/// The coach's side of the clock measure, on a clock the test moves.
final class CoachClockTests: XCTestCase {
    func testTheCoachAnswersWithItsSessionClockAndNoMoreThanItsBound() throws {
        let time = ManualNanoseconds()
        let clock = CoachClock(monotonic: { time.value })
        let question = Array(#"{"id":"ann-1/1","sent":12.5}"#.utf8)
        XCTAssertNil(clock.answer(question), "no answer before the start")
        time.value = 5_000_000_000
        clock.started(speed: 2)
        time.value = 6_500_000_000
        let answer = try XCTUnwrap(clock.answer(question).flatMap { JSONReader.value($0) })
        XCTAssertEqual(answer["id"], .string("ann-1/1"))
        XCTAssertEqual(answer["sent"]?.double, 12.5)
        XCTAssertEqual(answer["t"]?.double ?? 0, 3, accuracy: 1e-9, "1.5 real seconds at speed 2")
        for bad in [#"{"id":1,"sent":1}"#, #"{"id":"x"}"#, "os.exit()",
                    #"{"id":"\#(String(repeating: "x", count: 65))","sent":1}"#] {
            XCTAssertNil(clock.answer(Array(bad.utf8)), bad)
        }
        var answered = 0
        for _ in 0..<(CoachClock.mostAnswers + 50) where clock.answer(question) != nil { answered += 1 }
        XCTAssertLessThanOrEqual(answered, CoachClock.mostAnswers)
        time.value += 1_000_000_000
        XCTAssertNotNil(clock.answer(question), "a new second, new answers")
    }
}

final class ManualNanoseconds: @unchecked Sendable {
    var value: UInt64 = 0
}
