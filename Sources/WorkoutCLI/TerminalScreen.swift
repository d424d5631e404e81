import Foundation
import IntervalEngine
import Platform
import Synchronization

/// The terminal while the live display owns it: the alternate screen, a hidden cursor,
/// and (when standard input is the terminal) keys delivered one by one without echo.
/// Ctrl-C and Ctrl-Z still raise their signals (ISIG stays on), so they go through the
/// same clean paths as `kill`. `leave()` undoes everything; the crash guard undoes it
/// too if the process dies on a fault.
final class TerminalScreen {
    private var saved: termios?
    private(set) var active = false

    /// Enters the display's modes, or applies them again after a stop (`fg` gives the
    /// terminal back in whatever state the shell left it).
    func enter() {
        if Terminal.hasKeyboard {
            var current = termios()
            if tcgetattr(STDIN_FILENO, &current) == 0 {
                if saved == nil { saved = current }
                var raw = saved ?? current
                raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
                withUnsafeMutableBytes(of: &raw.c_cc) { cells in
                    cells[Int(VMIN)] = 1
                    cells[Int(VTIME)] = 0
                }
                tcsetattr(STDIN_FILENO, TCSANOW, &raw)
            }
        }
        Output.write(TerminalScreen.enterSequence)
        CrashGuard.arm(saved)
        active = true
    }

    func leave() {
        guard active else { return }
        active = false
        Output.write(TerminalReset.sequence)
        if var saved { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        CrashGuard.disarm()
    }

    /// Alternate screen, cursor hidden, screen cleared.
    static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J"
}

/// On the heap, not a Swift global: AddressSanitizer reports a copy into a global
/// `termios` as an overflow of the global's storage. The crash handler hands the pointer
/// to `tcsetattr`, so it is a raw pointer no `Atomic` or lock can stand for: hence
/// `nonisolated(unsafe)`; written on the main thread before `guardHasModes` says so.
nonisolated(unsafe) private let guardedModes: UnsafeMutablePointer<termios> = {
    let modes = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    modes.initialize(to: termios())
    return modes
}()
/// Lock-free, so the crash handler may read them.
private let guardHasModes = Atomic(false)
private let guardArmed = Atomic(false)
private let guardLeave: [UInt8] = Array(TerminalReset.sequence.utf8)

/// If the process dies on a fault (a Swift trap, a bad access) while the display is
/// up, the terminal is still given back: the handler only calls async-signal-safe
/// `write` and `tcsetattr`, then dies by the same signal with the default action.
enum CrashGuard {
    static let signals = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]
    /// Set once, before any handler is installed.
    private static let installed = Atomic(false)

    static func arm(_ modes: termios?) {
        if let modes {
            guardedModes.pointee = modes
            guardHasModes.store(true, ordering: .sequentiallyConsistent)
        }
        guardArmed.store(true, ordering: .sequentiallyConsistent)
        guard !installed.exchange(true, ordering: .sequentiallyConsistent) else { return }
        // Each global made here, not by its first use in the handler (a lazy global's
        // first use takes a lock).
        _ = guardHasModes.load(ordering: .sequentiallyConsistent)
        ChildProcess.prepare()
        for number in signals {
            SignalHandler.install(number) { number in
                ChildProcess.stopAllFromSignalHandler()
                if guardArmed.load(ordering: .sequentiallyConsistent) {
                    guardLeave.withUnsafeBytes { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
                    if guardHasModes.load(ordering: .sequentiallyConsistent) { tcsetattr(STDIN_FILENO, TCSANOW, guardedModes) }
                }
                SignalHandler.reset(number)
                raise(number)
            }
        }
    }

    static func disarm() {
        guardArmed.store(false, ordering: .sequentiallyConsistent)
    }
}
