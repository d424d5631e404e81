import Foundation
import TestSupport
import XCTest

/// A coach whose routine makes its segments as it goes (`generate`, as the bundled
/// `ladder` and `best-round` do): a follower ran only the warm-up the first timeline held,
/// said "completed" and exited 0 while the class went on. The coach now publishes its
/// timeline again as it makes segments, and followers run the whole class.
extension FollowTests {
    /// `littleLadder` with a warm-up long enough for a follower waiting from the start to join.
    static let ladder = littleLadder(countdown: 1, warmUp: 12)

    /// One follower from the start and one joining once the generated rounds have begun:
    /// each runs every segment the coach makes, with the coach's numbers and names, each
    /// boundary on the coach's moment (within 20 ms at speed 4: 0.08 workout seconds, as
    /// the other follow tests), and ends completed with the coach.
    func testAFollowerRunsAClassWithGeneratedSegmentsToTheEnd() throws {
        broker = try Self.shared.get()
        let ann = try follow("ann")
        XCTAssertTrue(eventually { ann.stderr.contains("waiting for the coach") }, ann.stderr)
        let coach = try start(Self.ladder, ["--speed", "4", "--mqtt", broker.url + "/\(gym)"])
        XCTAssertTrue(eventually { coach.stdout.contains(#""name":"Round 1""#) }, coach.stdout + coach.stderr)
        let bob = try follow("bob")
        XCTAssertEqual(coach.wait(), 0, coach.stderr)
        func names(_ text: String) -> [Int: String] {
            var names: [Int: String] = [:]
            for event in Self.events(text) where event["event"] as? String == "segment_start" {
                if let index = event["index"] as? Int, let name = event["name"] as? String { names[index] = name }
            }
            return names
        }
        let coachNames = names(coach.stdout), coachStarts = Self.starts(coach.stdout)
        XCTAssertEqual(coachNames, [1: "Warm up", 2: "Round 1", 3: "Rest 1", 4: "Round 2", 5: "Rest 2", 6: "Round 3",
                                    7: "Rest 3", 8: "Walk it off"], coach.stdout)
        for (name, run) in [("ann", ann), ("bob", bob)] {
            XCTAssertEqual(run.wait(), 0, "\(name): \(run.stderr)")
            let starts = Self.starts(run.stdout)
            // Each joined once the coach's clock was measured, in its first segment (Ann) or
            // later (Bob), stepping to the coach's: from the first segment the coach started
            // after that.
            let joined = Self.events(run.stdout).first { $0["event"] as? String == "follow" }?["coach_t"] as? Double ?? 99
            let first = coachStarts.filter { $0.value > joined + 0.5 }.keys.min() ?? 8
            // Ann waited for the coach: she joins in the warm-up (3 s at speed 4; the
            // clock's measure takes at most 3.5 s) and follows every generated segment.
            if run === ann { XCTAssertEqual(first, 2, "Ann joined in the warm-up: \(run.stdout)") }
            XCTAssertLessThan(first, 8, "\(name) followed generated segments: \(run.stdout)")
            var distances: [Double] = []
            defer { print("\(name): generated boundaries against the coach's, ms: \(distances.map { ($0 * 1000).rounded() / 1000 })") }
            for index in first...8 {
                XCTAssertEqual(names(run.stdout)[index], coachNames[index], "\(name): segment \(index)")
                guard let t = starts[index], let coachT = coachStarts[index] else {
                    XCTFail("\(name): no segment \(index): \(run.stdout)")
                    continue
                }
                XCTAssertEqual(t, coachT, accuracy: 0.08, "\(name): segment \(index)")
                distances.append((t - coachT) * 1000 / 4)
            }
            // Each segment once, in order, from the first followed: a boundary the follower
            // made was never undone by the coach's state from before it.
            let sequence = Self.events(run.stdout).filter { $0["event"] as? String == "segment_start" }
                .compactMap { $0["index"] as? Int }
            XCTAssertEqual(Array(sequence.drop { $0 < first }), Array(first...8), "\(name): \(run.stdout)")
            let end = try XCTUnwrap(Self.events(run.stdout).first { $0["event"] as? String == "workout_end" }, run.stdout)
            XCTAssertEqual(end["completed"] as? Bool, true, "\(name): \(run.stdout)")
            XCTAssertFalse(run.stderr.contains("cannot follow"), run.stderr)
        }
        let coachEnd = try XCTUnwrap(Self.events(coach.stdout).first { $0["event"] as? String == "workout_end" })
        XCTAssertEqual(coachEnd["completed"] as? Bool, true)
    }
}

extension FollowTests {
    /// A generating coach's timeline as a stranger may rewrite it, on a broker of its own
    /// under `gym`: an older one (fewer segments than followed) is refused, one warning
    /// however often it comes, and the follower goes on; the coach's own word that its
    /// timeline grew past what it publishes ends the follower, saying it cannot follow
    /// the rest, with exit status 1.
    func testAGeneratingCoachsTimelineIsTakenOnlyAsItGrows() throws {
        broker = try PrivateBroker()
        let warm = #"{"index":1,"start":0,"duration":30,"kind":"warmup","name":"Warm"}"#
        let round = #"{"index":2,"start":30,"duration":30,"kind":"work","name":"Round 1"}"#
        func plan(_ entries: [String]) -> String {
            #"{"name":"Class","open_ended":true,"more":true,"segments":["# + entries.joined(separator: ",") + "]}"
        }
        try publishAFakeCoach(plan([warm, round]))
        let start = Date()
        let coach = try answerClockQuestions { _, id, sent in
            #"{"id":"\#(id)","sent":\#(sent),"t":\#(1 + Date().timeIntervalSince(start)),"speed":1}"#
        }
        defer { coach.close(lastWords: nil) }
        let ann = try follow("ann", "gym")
        XCTAssertTrue(eventually(timeout: 15) { ann.stdout.contains(#""event":"follow""#) }, ann.stderr)
        for _ in 0..<2 {
            try broker.publish("gym/timeline", plan([warm]), retain: true)
        }
        XCTAssertTrue(eventually { ann.stderr.contains("gym/timeline: a timeline of 1 segments, older than the 2 followed") },
                      ann.stderr)
        try broker.publish("gym/timeline", #"{"name":"Class","too_large":true}"#, retain: true)
        XCTAssertEqual(ann.wait(), 1, ann.stderr)
        XCTAssertTrue(ann.stderr.contains("gym/timeline: the coach's timeline grew past what it publishes (4 MiB): "
                                          + "a follower cannot follow the rest of this class, after segment 2"), ann.stderr)
        XCTAssertEqual(ann.stderr.components(separatedBy: "older than").count - 1, 1, "one warning: \(ann.stderr)")
        let end = try XCTUnwrap(Self.events(ann.stdout).first { $0["event"] as? String == "workout_end" }, ann.stdout)
        XCTAssertEqual(end["completed"] as? Bool, false)
    }
}
