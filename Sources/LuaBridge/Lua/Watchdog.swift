import CSystem
import Foundation
import IntervalEngine
import Platform
import Synchronization
import WorkoutValues

/// The last resort behind the time limits. The count hook stops Lua code, but not a
/// single library call that never returns to Lua: a string pattern that backtracks
/// (`s:find(".-.-.-.-x")` on a few kilobytes runs for days) keeps the main thread inside
/// C, where neither the hook nor Ctrl-C's handler can act. If a call is still running
/// one second plus its own limit after its time limit, a signal handler puts back the
/// terminal settings from before the workout, says why, and ends the process with
/// status 1, after appending the line `LastResort` holds (the session so far). Arming and disarming is one `timer_settime` each, per call.
enum Watchdog {
    /// Everything the signal handler touches, set up before any timer is armed: the
    /// handler only reads these and calls `tcsetattr`, `write` and `_exit`.
    private struct Shared {
        /// The first timer's id is 0, which Swift sees as a nil pointer: hence the flag.
        var timer: timer_t?
        var hasTimer = false
        var message: UnsafePointer<CChar>?
        var messageLength = 0
        var terminal = termios()
        var hasTerminal = false
    }

    /// Written on the main thread, read in signal context, where no lock may be taken and
    /// through pointers (`&shared.terminal`) no `Atomic` gives: hence `nonisolated(unsafe)`;
    /// the handler only reads.
    nonisolated(unsafe) private static var shared = Shared()
    /// Set once, before the handler can run.
    private static let prepared = Atomic(false)

    /// Installs the handler and creates the timer once; remembers the terminal's
    /// settings as they are before any workout runs.
    static func prepare() {
        guard !prepared.exchange(true, ordering: .sequentiallyConsistent) else { return }
        var timer: timer_t?
        guard workout_alarm_timer(&timer) == 0 else { return }
        shared.timer = timer
        shared.hasTimer = true
        shared.hasTerminal = tcgetattr(STDIN_FILENO, &shared.terminal) == 0
        LiveChildren.prepare()
        SignalHandler.install(workout_alarm_signal()) { _ in
            LiveChildren.killFromHandler()
            if Watchdog.shared.hasTerminal {
                _ = tcsetattr(STDIN_FILENO, TCSANOW, &Watchdog.shared.terminal)
            }
            LastResort.appendFromHandler()
            if let message = Watchdog.shared.message {
                _ = write(STDERR_FILENO, message, Watchdog.shared.messageLength)
            }
            _exit(1)
        }
    }

    /// The message for a call of a routine (`loading`, a hook's name, `generate`) with its
    /// time limit, kept in C memory for the handler. It says what is known — which call,
    /// how long — rather than guessing what the library call was.
    static func message(file fileName: String, call: String, seconds: Double) -> (message: UnsafeMutablePointer<CChar>, length: Int) {
        // On a terminal, also end any colour, show the cursor again and leave the live
        // display's alternate screen, so the message is seen and the shell is usable.
        let reset = isatty(STDERR_FILENO) == 1 ? TerminalReset.sequence + "\r\n" : ""
        let text = reset + "workout: \(VisibleText.escape(fileName)): \(call) ran \(Number.format(seconds + 1)) s past its time "
            + "limit of \(Number.format(seconds)) s inside a library call that cannot be interrupted; stopping\n"
        let bytes = Array(text.utf8)
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        for (position, byte) in bytes.enumerated() { buffer[position] = CChar(bitPattern: byte) }
        return (buffer, bytes.count)
    }

    /// Fires at `nanoseconds` of CLOCK_MONOTONIC unless disarmed first.
    static func arm(at nanoseconds: Int64, message: UnsafePointer<CChar>, length: Int) {
        guard shared.hasTimer else { return }
        shared.message = message
        shared.messageLength = length
        _ = workout_alarm_at(shared.timer, max(nanoseconds, 1))
    }

    static func disarm() {
        guard shared.hasTimer else { return }
        _ = workout_alarm_at(shared.timer, 0)
    }
}
