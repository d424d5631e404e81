import CSystem
import Foundation
import Platform

/// The clocks the run-loop scheduler reads, injectable so tests can move the wall clock
/// (and prove that deadlines follow the monotonic one) or make the machine "sleep".
public struct Clocks: Sendable {
    /// Nanoseconds on a clock that only moves forward and stops while the system is
    /// suspended (CLOCK_MONOTONIC).
    public var monotonic: @Sendable () -> UInt64
    /// The wall clock, which `Timer` fire dates are expressed in.
    public var wall: @Sendable () -> Date
    /// Nanoseconds on a clock that keeps counting while the system is suspended
    /// (CLOCK_BOOTTIME): it running ahead of `monotonic` means the machine slept.
    public var boottime: @Sendable () -> UInt64

    /// Without a boot-time clock the machine is taken never to sleep.
    public init(monotonic: @escaping @Sendable () -> UInt64, wall: @escaping @Sendable () -> Date,
                boottime: (@Sendable () -> UInt64)? = nil) {
        self.monotonic = monotonic
        self.wall = wall
        self.boottime = boottime ?? monotonic
    }

    public static let system = Clocks(
        monotonic: { MonotonicClock.now() },
        wall: { Date() },
        boottime: { UInt64(workout_boottime_ns()) })
}
