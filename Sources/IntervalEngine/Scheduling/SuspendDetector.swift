import CSystem
import Dispatch
import Foundation
import Platform

/// Notices that the machine slept. CLOCK_MONOTONIC stops during a suspend and
/// CLOCK_BOOTTIME does not, so their difference grows by exactly the time asleep and
/// stays constant otherwise (both are slewed alike by NTP).
struct SuspendDetector {
    /// Shorter sleeps are not worth pausing a workout for.
    static let threshold: Double = 1

    let clocks: Clocks
    private var offset: Int64

    init(clocks: Clocks) {
        self.clocks = clocks
        offset = 0
        offset = currentOffset()
    }

    private func currentOffset() -> Int64 {
        Int64(bitPattern: clocks.boottime() &- clocks.monotonic())
    }

    /// Forgets any sleep so far: a machine that slept while nothing was scheduled (the
    /// workout was paused) missed nothing.
    mutating func reanchor() {
        offset = currentOffset()
    }

    /// Seconds slept since the last check or anchor, when at least the threshold.
    mutating func check() -> Double? {
        let now = currentOffset()
        let missed = Double(now - offset) / 1e9
        guard missed >= Self.threshold else { return nil }
        offset = now
        return missed
    }
}

/// A one-shot CLOCK_BOOTTIME timer on the main queue, armed a little after the next
/// pending deadline. Without a suspend the run-loop timer fires first and re-arms it, so
/// it never wakes the process; after a sleep longer than that, it fires the moment the
/// machine wakes, so the workout is paused where the sleep began instead of running on.
final class SuspendSentinel {
    /// How long after the next deadline the sentinel waits (boot-time seconds).
    static let margin: Double = 1
    /// How much later still it may fire, so it need not be re-armed for every timer.
    static let slack: Double = 1

    private let descriptor: Int32
    private let source: DispatchSourceRead

    init?(onWake: @escaping () -> Void) {
        descriptor = workout_boottime_timer()
        guard descriptor >= 0 else { return nil }
        let descriptor = descriptor
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: .main)
        source.setEventHandler {
            var expirations: UInt64 = 0
            _ = read(descriptor, &expirations, 8)
            onWake()
        }
        source.setCancelHandler { close(descriptor) }
        source.resume()
    }

    deinit {
        source.cancel()
    }

    /// Fires `seconds` from now on the boot-time clock (a sleep counts).
    func arm(in seconds: Double) {
        _ = workout_arm_timer(descriptor, Int64(clamping: nanoseconds(max(seconds, 0.001))))
    }
}

/// A scheduler that can tell when the machine slept under a running workout.
public protocol SuspendDetecting: AnyObject {
    /// Called on the main thread with the seconds slept, before any timer due in the
    /// meantime runs.
    var onSuspend: ((_ missed: Double) -> Void)? { get set }
}
