import Foundation
import Synchronization

/// Keeps the computer awake while a workout runs: a laptop that suspends mid-workout
/// stops the timer (the workout pauses, see `SuspendDetector`). It holds logind's
/// inhibitor lock ("sleep:idle", mode "block") from the start of a real run to its end. The lock is a file descriptor, so however the process ends
/// — the watchdog, a crash, `kill -9` — the kernel closes it and logind lets go.
/// Without libsystemd, a system bus or logind, nothing happens and nothing is said.
///
/// The request is one blocking call to logind's `Inhibit` (`BusConnection.callOnce`) on a
/// queue of its own (a bus that does not answer must not delay the start), answered within
/// two seconds or given up.
///
/// Shared by the main thread (`hold`, `release`) and that queue (the lock coming back), so
/// its state is one value under a `Mutex`: the compiler checks that it is `Sendable`.
public final class SleepInhibitor: Sendable {
    /// The lock held (-1 for none), and whether it was let go (a lock that comes later is
    /// closed at once).
    private struct State {
        var descriptor: Int32 = -1
        var released = false
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "workout.inhibit")

    public init() {}

    /// Asks logind for the lock; `why` is what a desktop shows for it. Where there is no
    /// system bus to ask (a container, a server), libsystemd is not even loaded.
    public func hold(why: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard Bus.system.isReachable(environment: environment) else { return }
        queue.async { [self] in
            let held = Self.inhibit(why: why, environment: environment)
            state.withLock { state in
                if state.released {
                    if held >= 0 { close(held) }
                } else {
                    state.descriptor = held
                }
            }
        }
    }

    /// Lets the computer sleep again (idempotent); a lock still on its way is let go the
    /// moment it comes.
    public func release() {
        state.withLock { state in
            state.released = true
            if state.descriptor >= 0 { close(state.descriptor) }
            state.descriptor = -1
        }
    }

    /// logind's lock ("sleep:idle", mode "block"): a descriptor of our own, close-on-exec
    /// (closing it releases the lock), or -1 — no libsystemd, no logind, or no answer within
    /// two seconds.
    private static func inhibit(why: String, environment: [String: String]) -> Int32 {
        let answer = BusConnection.callOnce(
            on: .system, environment: environment, "org.freedesktop.login1", "/org/freedesktop/login1",
            "org.freedesktop.login1.Manager", "Inhibit", timeout: 2,
            arguments: { call in
                for argument in ["sleep:idle", "workout", why, "block"] { call.string(argument) }
            },
            reading: { arguments -> Int32 in
                // The reply owns the descriptor it carries: keep a copy of our own.
                guard let lock = arguments.first?.integer, lock >= 0 else { return -1 }
                return fcntl(Int32(lock), F_DUPFD_CLOEXEC, 3)
            })
        return (try? answer.get()) ?? -1
    }
}
