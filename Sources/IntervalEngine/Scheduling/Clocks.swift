import Foundation

/// The clocks the run-loop scheduler reads, injectable so tests can move the wall clock
/// and prove that deadlines follow the monotonic one.
public struct Clocks: Sendable {
    /// Nanoseconds on a clock that only moves forward (CLOCK_MONOTONIC).
    public var monotonic: @Sendable () -> UInt64
    /// The wall clock, which `Timer` fire dates are expressed in.
    public var wall: @Sendable () -> Date

    public init(monotonic: @escaping @Sendable () -> UInt64, wall: @escaping @Sendable () -> Date) {
        self.monotonic = monotonic
        self.wall = wall
    }

    public static let system = Clocks(
        monotonic: {
            var spec = timespec()
            clock_gettime(CLOCK_MONOTONIC, &spec)
            return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
        },
        wall: { Date() })
}
