import Foundation

/// Nanoseconds on CLOCK_MONOTONIC, which only moves forward and stops while the system is
/// suspended: a child's deadline here, and the engine's `Clocks.system.monotonic`, read
/// one way in one place.
public enum MonotonicClock {
    public static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}

/// Seconds as whole nanoseconds, clamped to what a UInt64 holds: a conversion that
/// can never trap, whatever the seconds (a child's timeout here, the engine's timers).
package func nanoseconds(_ seconds: Double) -> UInt64 {
    let value = (seconds * 1e9).rounded()
    guard value > 0 else { return 0 }
    return value >= 1.8e19 ? UInt64.max : UInt64(value)
}
