import Foundation
import IntervalEngine
import Synchronization
import WorkoutValues

/// The coach's side of a follower's clock measure: a question `{"id": ID, "sent": S}` on
/// `PREFIX/clock` is answered on `PREFIX/clock/answer` with `{"id", "sent", "t", "speed"}`,
/// `t` being the session's clock (the `t` of its events) as the answer leaves. The
/// follower takes the round trip's middle as the moment of `t` (docs/design.md,
/// "Publishing: `run --mqtt`"). Read on mosquitto's thread, so it keeps its own copy of the
/// start in a `Mutex`.
final class CoachClock: Sendable {
    /// Monotonic nanoseconds at `workout_start` (t = 0), and the run's speed.
    private let start = Mutex<(nanoseconds: UInt64, speed: Double)?>(nil)
    private let monotonic: @Sendable () -> UInt64

    /// Answers in the current second, and which second: past `mostAnswers` a second, a
    /// question goes unanswered (a follower asks six at a time and tries again), so a
    /// flood costs the network thread little and the broker nothing more.
    private let answered = Mutex((second: UInt64(0), count: 0))
    static let mostAnswers = 200

    /// A question is an id and a number: anything longer is not one.
    static let largestQuestion = 256
    static let longestID = 64

    init(monotonic: @escaping @Sendable () -> UInt64 = Clocks.system.monotonic) {
        self.monotonic = monotonic
    }

    /// At `workout_start`, whose `t` is 0.
    func started(speed: Double) {
        let now = monotonic()
        start.withLock { $0 = (now, speed) }
    }

    /// The answer to a question, or nil before the start and for anything that is not one.
    func answer(_ bytes: [UInt8]) -> String? {
        let now = monotonic()
        let allowed: Bool = answered.withLock { answered in
            let second = now / 1_000_000_000
            if answered.second != second { answered = (second, 0) }
            answered.count += 1
            return answered.count <= Self.mostAnswers
        }
        guard allowed, let start = start.withLock({ $0 }),
              let question = bytes.withUnsafeBufferPointer({ JSONReader.value($0) }),
              case .string(let id)? = question["id"], id.utf8.count <= Self.longestID,
              let sent = question["sent"]?.double, sent.isFinite else { return nil }
        let t = Double(monotonic() &- start.nanoseconds) / 1e9 * start.speed
        return JSONValue.object([("id", .string(id)), ("sent", .number(sent)), ("t", .number(t)),
                                 ("speed", .number(start.speed))]).text
    }
}

extension JSONValue {
    /// A JSON number as a Double, whichever way it was read; nil for anything else.
    public var double: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }
}
