import Broker
import Foundation
import IntervalEngine
import Synchronization
import XCTest

/// `workout follow` against a coach's topics written by a stranger: whatever the broker
/// carries, a follower warns and goes on, and never crashes.
extension FollowTests {
    /// A plan of one 30 s segment, a running state and `online`, all retained: a coach as
    /// the broker shows it, without a coach's run.
    func publishAFakeCoach(_ plan: String = #"{"name":"Class","duration":30,"segments":[{"index":1,"start":0,"duration":30,"kind":"work","name":"Hard"}]}"#) throws {
        try broker.publish("gym/timeline", plan, retain: true)
        try broker.publish("gym/state", #"{"phase":"running","segment":1,"t":1,"left":29,"deadline":30,"duration":30,"speed":1}"#,
                           retain: true)
        try broker.publish("gym/availability", "online", retain: true)
    }

    /// Answers each clock question on `gym/clock` with what `answer` makes of its number
    /// (0 first) and the question's `id` and `sent`: the coach's side, as a stranger may write it.
    func answerClockQuestions(_ answer: @escaping @Sendable (Int, String, Double) -> String) throws -> BrokerConnection {
        let address = try BrokerAddress(parsing: broker.url + "/gym")
        let connection = try BrokerConnection.open(address, clientID: "fake-coach-\(getpid())", willTopic: "gym/fake",
                                                   will: "", warn: { _ in })
        let asked = Mutex(0)
        connection.subscribe(BrokerConnection.Subscription(topic: "gym/clock", largest: 512, onNetworkThread: true) { bytes in
            guard let question = bytes.withUnsafeBufferPointer({ JSONReader.value($0) }),
                  case .string(let id)? = question["id"], case .number(let sent)? = question["sent"] else { return }
            let number = asked.withLock { count in
                defer { count += 1 }
                return count
            }
            let text = answer(number, id, sent)
            connection.publish("gym/clock/answer", text, retain: false)
        })
        connection.start()
        return connection
    }

    /// Clock answers whose `t` is far before any start (-1e12, which crashed a follower
    /// converting it to its clock's nanoseconds) or whose speed is `1e999` (infinity),
    /// `0.001` or `20000` (outside `--speed`'s range) are not taken: one warning, and the
    /// follower joins with the good answers that follow them.
    func testBadClockAnswersAreOneWarningNotACrash() throws {
        broker = try PrivateBroker()
        try publishAFakeCoach()
        let start = Date()
        let coach = try answerClockQuestions { number, id, sent in
            let t = 1 + Date().timeIntervalSince(start)
            // The first six questions (the first batch), then six more, are answered badly.
            switch number {
            case 0..<6: return #"{"id":"\#(id)","sent":\#(sent),"t":-1e12,"speed":1}"#
            case 6..<9: return #"{"id":"\#(id)","sent":\#(sent),"t":\#(t),"speed":1e999}"#
            case 9, 10: return #"{"id":"\#(id)","sent":\#(sent),"t":\#(t),"speed":0.001}"#
            case 11: return #"{"id":"\#(id)","sent":\#(sent),"t":1e300,"speed":20000}"#
            default: return #"{"id":"\#(id)","sent":\#(sent),"t":\#(t),"speed":1}"#
            }
        }
        defer { coach.close(lastWords: nil) }
        let ann = try follow("ann", "gym")
        XCTAssertTrue(eventually(timeout: 15) { ann.stdout.contains(#""event":"follow""#) }, ann.stderr)
        try broker.publish("gym/availability", "offline", retain: true)
        XCTAssertEqual(ann.wait(), 0, ann.stderr)
        let warnings = ann.stderr.components(separatedBy: "gym/clock/answer").count - 1
        XCTAssertEqual(warnings, 1, ann.stderr)
        XCTAssertTrue(ann.stderr.contains("a clock answer that is not one"), ann.stderr)
        XCTAssertTrue(ann.stdout.contains(#""speed":1}"#), "the good answers' speed: \(ann.stdout)")
    }
}

extension FollowTests {
    /// A class that ends while the follower measures the coach's clock (no answer comes:
    /// a short class, a busy machine) is said and ends the follower, exit 1; it waited for
    /// ever before, for a coach that had gone.
    func testAClassThatEndsBeforeTheFollowerJoinsIsSaidNotWaitedOn() throws {
        broker = try PrivateBroker()
        try publishAFakeCoach()
        let watch = try broker.subscribe(["gym/clock"])
        let ann = try follow("ann", "gym")
        XCTAssertTrue(eventually { !watch.payloads("gym/clock").isEmpty }, "the follower asks the time: \(ann.stderr)")
        try broker.publish("gym/state", #"{"phase":"finished","segment":1,"t":30,"left":0,"speed":1}"#, retain: true)
        try broker.publish("gym/availability", "offline", retain: true)
        XCTAssertEqual(ann.wait(), 1, ann.stderr)
        XCTAssertTrue(ann.stderr.contains("gym ended before this follower could join it"), ann.stderr)
        XCTAssertFalse(ann.stdout.contains("workout_start"), ann.stdout)
    }
}
