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
              let t = value["t"]?.double, t.isFinite else { return nil }
        let segment = value["segment"]?.double.flatMap { $0 >= 1 && $0 <= 1e7 ? Int($0) : nil }
        let speed = value["speed"]?.double.flatMap { $0 > 0 && $0.isFinite ? $0 : nil } ?? 1
        self.init(phase: phase, segment: segment, left: value["left"]?.double.flatMap { $0.isFinite ? $0 : nil },
                  t: t, deadline: value["deadline"]?.double.flatMap { $0.isFinite ? $0 : nil },
                  duration: value["duration"]?.double.flatMap { $0.isFinite ? $0 : nil }, speed: speed)
    }

    /// Running or paused: a workout a follower can join.
    public var joinable: Bool { (phase == .running || phase == .paused) && segment != nil }
}
