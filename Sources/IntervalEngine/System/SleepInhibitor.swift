import CSystem
import Foundation

/// Keeps the computer awake while a workout runs: a laptop that suspends mid-workout
/// stops the timer (the workout pauses, see `SuspendDetector`). It holds logind's
/// inhibitor lock ("sleep:idle", mode "block") from the start of a real run to its end. The lock is a file descriptor, so however the process ends
/// — the watchdog, a crash, `kill -9` — the kernel closes it and logind lets go.
/// Without libsystemd, a system bus or logind, nothing happens and nothing is said.
///
/// The request goes out on a queue of its own (a bus that does not answer must not
/// delay the start), answered within two seconds or given up.
public final class SleepInhibitor: @unchecked Sendable {
    private let lock = NSLock()
    private var descriptor: Int32 = -1
    private var released = false
    private let queue = DispatchQueue(label: "workout.inhibit")

    public init() {}

    /// Asks logind for the lock; `why` is what a desktop shows for it. Where there is no
    /// system bus to ask (a container, a server), libsystemd is not even loaded.
    public func hold(why: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let address = environment["DBUS_SYSTEM_BUS_ADDRESS"] ?? ""
        guard !address.isEmpty || access("/run/dbus/system_bus_socket", F_OK) == 0 else { return }
        queue.async { [self] in
            let held = workout_inhibit("sleep:idle", "workout", why, "block", 2_000_000)
            lock.withLock {
                if released {
                    if held >= 0 { close(held) }
                } else {
                    descriptor = held
                }
            }
        }
    }

    /// Lets the computer sleep again (idempotent); a lock still on its way is let go the
    /// moment it comes.
    public func release() {
        lock.withLock {
            released = true
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }
    }
}
