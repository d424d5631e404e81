@testable import ClassFollowing
@testable import ClassPublishing
import IntervalEngine
import WorkoutValues
import TestSupport
import XCTest

/// A coach whose routine makes its segments as it goes (`generate`): its timeline is
/// published again as they are made, and a follower appends them to its data-only routine
/// and runs them on the coach's moments, waiting at a boundary for one not here yet.
extension FollowingTests {
    /// `littleLadder`, without a countdown.
    static let ladder = littleLadder(countdown: 0, warmUp: 4)

    static func boundaries(_ harness: Harness) -> [String] {
        harness.trace.filter { $0.contains("segment_start") || $0.contains("segment_end") || $0.contains("workout_end") }
    }

    /// The coach's session and a follower's, a second at a time, the follower's first:
    /// each generated segment's boundary finds the follower before the coach has made it,
    /// so it waits there; the timeline the coach publishes then gives it the segment,
    /// entered at the boundary's moment. Both run the same segments, with the same names
    /// and numbers, at the same times, and end completed together; a follower joining
    /// late reads every segment made so far.
    func testAFollowerRunsTheCoachsGeneratedSegmentsAsTheyCome() throws {
        let coach = try Harness(Self.ladder)
        var published = PublishedTimeline(largest: SessionPublisher.largestTimeline)
        let first = try XCTUnwrap(published.payload(coach.session.routine))
        let read = try FollowedTimeline.read(Array(first.utf8), source: "gym/timeline")
        let generated = try XCTUnwrap(read.generated)
        XCTAssertEqual(read.routine.timeline.segments.map(\.name), ["Warm up"])
        XCTAssertTrue(read.routine.timeline.isOpenEnded)
        let follower = Harness(read.routine)
        coach.session.start()
        follower.session.start()
        var waits = 0
        var latest = first
        var lateJoiner: [String]?
        for second in 1...40 {
            follower.clock.advance(by: 1)
            if follower.session.isAwaitingSegment { waits += 1 }
            coach.clock.advance(by: 1)
            if let payload = published.payload(coach.session.routine) {
                latest = payload
                _ = try generated.take(Array(payload.utf8), source: "gym/timeline")
                follower.session.segmentsArrived()
            }
            if second == 14 {
                lateJoiner = try FollowedTimeline.read(Array(latest.utf8), source: "t").routine.timeline.segments.map(\.name)
            }
            XCTAssertFalse(follower.session.isAwaitingSegment, "at \(second) s")
        }
        XCTAssertEqual(coach.session.state, .finished)
        XCTAssertEqual(follower.session.state, .finished)
        XCTAssertEqual(Self.boundaries(follower), Self.boundaries(coach))
        XCTAssertEqual(Self.boundaries(coach).filter { $0.contains("segment_start") },
                       ["0 segment_start 1 Warm up", "4 segment_start 2 Round 1", "8 segment_start 3 Rest 1",
                        "12 segment_start 4 Round 2", "16 segment_start 5 Rest 2", "19 segment_start 6 Round 3",
                        "23 segment_start 7 Rest 3", "25 segment_start 8 Walk it off"])
        XCTAssertEqual(Self.boundaries(follower).last, "29 workout_end true 29 8")
        XCTAssertEqual(waits, 7, "every boundary into a segment the coach had not made yet waited for it")
        XCTAssertEqual(lateJoiner, ["Warm up", "Round 1", "Rest 1", "Round 2"], "a late joiner gets what was made so far")
        XCTAssertFalse(follower.trace.contains { $0.contains("error") }, "\(follower.trace)")
    }

    /// The reader of a republished timeline takes only a longer version of the one
    /// followed: anything else — not JSON, too large, not saying whether more comes, older
    /// (fewer segments), another class's (a followed segment changed), numbered out of
    /// order, a segment out of bounds — is refused and changes nothing. The coach's own
    /// word that it grew too large is told apart; once it said no more, nothing more is taken.
    func testTheReaderOfAppendedSegmentsTakesOnlyALongerTimeline() throws {
        func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
        func timeline(_ entries: [String], more: Bool = true) -> [UInt8] {
            bytes(#"{"name":"L","open_ended":true,"more":\#(more),"segments":["# + entries.joined(separator: ",") + "]}")
        }
        let warm = #"{"index":1,"kind":"warmup","name":"Warm","duration":4}"#
        let round1 = #"{"index":2,"kind":"work","name":"Round 1","duration":4}"#
        let round2 = #"{"index":3,"kind":"work","name":"Round 2","duration":3,"info":{"text":"Faster"}}"#
        let read = try FollowedTimeline.read(timeline([warm]), source: "t")
        let generated = try XCTUnwrap(read.generated)
        XCTAssertEqual(try generated.take(timeline([warm, round1]), source: "t"), .added(1, more: true))
        XCTAssertEqual(try generated.take(timeline([warm, round1]), source: "t"), .added(0, more: true), "the same again")
        XCTAssertEqual(generated.count, 2)
        let refused: [(String, [UInt8])] = [
            ("is not a workout plan", bytes("return workout {}")),
            ("more than a follower reads", [UInt8](repeating: UInt8(ascii: " "), count: FollowedTimeline.largest + 1)),
            ("whether more segments come", bytes(#"{"name":"L","open_ended":true,"segments":[\#(warm),\#(round1)]}"#)),
            ("whether more segments come", bytes(#"{"name":"L","open_ended":true,"more":"yes","segments":[\#(warm)]}"#)),
            ("whether more segments come", bytes(#"{"name":"L","open_ended":false,"more":true,"segments":[\#(warm)]}"#)),
            ("older than the 2 followed", timeline([warm])),
            ("segment 2 is not the one followed", timeline([warm, round1.replacingOccurrences(of: "Round 1", with: "Sprint"),
                                                            round2])),
            ("segment 2 is not the one followed", timeline([warm, round1.replacingOccurrences(of: ":4}", with: ":5}"), round2])),
            ("segment 3 is numbered out of order", timeline([warm, round1, round2.replacingOccurrences(of: #""index":3"#,
                                                                                                       with: #""index":4"#)])),
            ("segment 3 is numbered out of order", timeline([warm, round1, round2.replacingOccurrences(of: #""index":3,"#,
                                                                                                       with: "")])),
            ("segment 3 of the timeline is not", timeline([warm, round1, #"{"index":3,"kind":"work","name":"X","duration":-1}"#])),
            ("segment 3 of the timeline is not", timeline([warm, round1, #"{"index":3,"kind":"work","name":"X","duration":1e300}"#])),
            ("segment 3 of the timeline is not", timeline([warm, round1, #"{"index":3,"kind":"work"}"#])),
            ("a \"segments\" list of at most", timeline(Array(repeating: "0", count: FollowedTimeline.mostSegments + 1))),
        ]
        for (said, input) in refused {
            XCTAssertThrowsError(try generated.take(input, source: "gym/timeline"), said) { error in
                let message = (error as? FollowError)?.message ?? ""
                XCTAssertTrue(message.hasPrefix("gym/timeline: ") && message.contains(said), "\(said): \(message)")
            }
            XCTAssertEqual(generated.count, 2, said)
        }
        XCTAssertFalse(generated.isComplete)
        XCTAssertEqual(try generated.take(bytes(#"{"name":"L","too_large":true}"#), source: "t"), .tooLarge)
        XCTAssertEqual(try generated.take(timeline([warm, round1, round2], more: false), source: "t"), .added(1, more: false))
        XCTAssertTrue(generated.isComplete)
        XCTAssertEqual(try generated.take(timeline([warm, round1, round2, round2], more: true), source: "t"), .added(0, more: false),
                       "nothing after the coach said no more")
        XCTAssertEqual(generated.count, 3)
        // The follower's routine has them, with their info as data, once its session pulls them.
        let harness = Harness(read.routine)
        harness.run()
        XCTAssertEqual(harness.trace.filter { $0.contains("segment_start") },
                       ["0 segment_start 1 Warm", "4 segment_start 2 Round 1", "8 segment_start 3 Round 2"])
        XCTAssertEqual(harness.trace.last, "11 workout_end true 11 3")
        // A coach too old to publish its generated segments says nothing of `more`: refused.
        XCTAssertThrowsError(try FollowedTimeline.read(bytes(#"{"name":"L","open_ended":true,"segments":[\#(warm)]}"#),
                                                       source: "gym/timeline")) { error in
            XCTAssertTrue((error as? FollowError)?.message.contains("a follower cannot follow this class") ?? false, "\(error)")
        }
    }

    /// A follower stepped to a coach's segment it has not received yet waits at the
    /// boundary: further states step nothing (a kept `next` would skip the segment when it
    /// came), and once it comes the follower enters it and ends it on the coach's moment.
    func testAlignmentLeavesAWaitingBoundaryForTheCoachsNextSegment() throws {
        let warm = #"{"index":1,"kind":"warmup","name":"Warm","duration":4}"#
        let round1 = #"{"index":2,"kind":"work","name":"Round 1","duration":4}"#
        func timeline(_ entries: [String]) -> [UInt8] {
            Array((#"{"name":"L","open_ended":true,"more":true,"segments":["# + entries.joined(separator: ",") + "]}").utf8)
        }
        let read = try FollowedTimeline.read(timeline([warm]), source: "t")
        let clock = VirtualClock()
        clock.advance(by: 5)
        let session = Session(routine: read.routine, scheduler: clock)
        session.start()
        let coach = CoachState(phase: .running, segment: 2, left: 3, t: 5, deadline: 8, duration: 4)
        XCTAssertEqual(CoachAlignment.align(session, to: coach), [.next])
        XCTAssertTrue(session.isAwaitingSegment)
        XCTAssertEqual(session.segment.index, 1)
        XCTAssertEqual(CoachAlignment.align(session, to: coach), [], "nothing stepped while it waits")
        XCTAssertEqual(try read.generated?.take(timeline([warm, round1]), source: "t"), .added(1, more: true))
        session.segmentsArrived()
        XCTAssertFalse(session.isAwaitingSegment)
        XCTAssertEqual(session.segment.index, 2)
        XCTAssertEqual(session.segment.name, "Round 1")
        // The segment came before the coach's next state: the one before still names the
        // warm-up, ending where Round 1 began. Not a step back.
        XCTAssertEqual(CoachAlignment.align(session, to: CoachState(phase: .running, segment: 1, left: 0.1, t: 4.9,
                                                                    deadline: 5, duration: 4)), [])
        XCTAssertEqual(session.segment.index, 2)
        XCTAssertEqual(CoachAlignment.align(session, to: coach), [.shift(-1)])
        XCTAssertEqual(session.segmentDeadline, 8, accuracy: 1e-9)
        // The coach quits: a follower waiting for more is not completed.
        clock.advance(by: 3)
        XCTAssertTrue(session.isAwaitingSegment)
        session.apply(.quit)
        XCTAssertEqual(session.state, .finished)
        XCTAssertFalse(session.isAwaitingSegment)
        XCTAssertEqual(session.summary?.completed, false)
    }
}
