import ClassPublishing
import IntervalEngine

/// What a follower reads of the coach's retained `PREFIX/state`: where the workout is,
/// in the coach's clock (the `t` of its events).
public struct CoachState: Equatable, Sendable {
    public enum Phase: String, Sendable { case ready, running, paused, finished }

    public var phase: Phase
    /// 1-based; nil before the first segment.
    public var segment: Int?
    /// Exact seconds left in the segment.
    public var left: Double?
    /// The coach's clock when the state was taken, and its segment's end (while running).
    public var t: Double
    public var deadline: Double?
    /// The segment's length, as `+time` left it.
    public var duration: Double?
    public var speed: Double

    /// A state is a small object; past this it is not one.
    public static let largest = 64 * 1024

    public init(phase: Phase, segment: Int?, left: Double?, t: Double, deadline: Double?, duration: Double? = nil,
                speed: Double = 1) {
        self.phase = phase
        self.duration = duration
        self.segment = segment
        self.left = left
        self.t = t
        self.deadline = deadline
        self.speed = speed
    }

    /// Nil for anything that is not a state.
    public init?(_ bytes: [UInt8]) {
        guard bytes.count <= Self.largest, let value = bytes.withUnsafeBufferPointer({ JSONReader.value($0) }),
              case .string(let name)? = value["phase"], let phase = Phase(rawValue: name),
              let t = CoachNumbers.time(value["t"]?.double) else { return nil }
        let segment = value["segment"]?.double.flatMap { $0 >= 1 && $0 <= 1e7 ? Int($0) : nil }
        // Every number as `--speed` and the coach's times are checked (`CoachNumbers`).
        let speed = CoachNumbers.speed(value["speed"]?.double) ?? 1
        self.init(phase: phase, segment: segment, left: CoachNumbers.time(value["left"]?.double),
                  t: t, deadline: CoachNumbers.time(value["deadline"]?.double),
                  duration: CoachNumbers.time(value["duration"]?.double), speed: speed)
    }

    /// Running or paused: a workout a follower can join.
    public var joinable: Bool { (phase == .running || phase == .paused) && segment != nil }
}
