import IntervalEngine
import WorkoutValues

/// The coach's answer to one of this follower's clock questions, as it comes off
/// `PREFIX/clock/answer`: `{"id","sent","t","speed"}`. Anyone who may publish there can
/// send one, so an answer to our question whose time or speed is not one a coach's run
/// can have (`CoachNumbers`) is `bad`, and the follower says so once rather than set its
/// clock by it. Pure, for the tests and the fuzzer.
public enum ClockAnswer: Equatable, Sendable {
    /// Not JSON, or someone else's question: nothing to say.
    case notOurs
    /// Our question, answered with numbers no coach has: why.
    case bad(String)
    /// Question `number` answered: the coach's clock `t` and its speed.
    case answer(number: Int, t: Double, speed: Double)

    /// An answer is a short object: past this it is not read.
    public static let largest = 512

    /// `bytes` read for the follower whose questions' ids start with `id` and `/`.
    public static func read(_ bytes: [UInt8], id: String) -> ClockAnswer {
        guard bytes.count <= largest, let value = bytes.withUnsafeBufferPointer({ JSONReader.value($0) }),
              case .string(let answerID)? = value["id"], answerID.hasPrefix(id + "/"),
              let number = Int(answerID.dropFirst(id.count + 1)) else { return .notOurs }
        guard let t = CoachNumbers.time(value["t"]?.double) else {
            return .bad("its t is not a time from 0 to \(Number.format(CoachNumbers.latestTime)) s")
        }
        guard let speed = CoachNumbers.speed(value["speed"]?.double) else {
            return .bad("its speed is not one from \(Number.format(RunLoopScheduler.speeds.lowerBound)) to "
                        + "\(Number.format(RunLoopScheduler.speeds.upperBound))")
        }
        return .answer(number: number, t: t, speed: speed)
    }
}
