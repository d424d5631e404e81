import Dispatch
import Foundation
import IntervalEngine
import LuaBridge
import Platform
import Synchronization

/// The write end of the self-pipe the signal handler writes to. An `Atomic`: lock-free, so
/// the handler may read it.
private let signalPipeInput = Atomic<Int32>(-1)
/// The latest of the `stopping` signals to arrive, straight from the handler (0: none),
/// for a process that is no longer turning the main queue (waiting for a reader).
private let lastStopping = Atomic<Int32>(0)

/// Signals as events on the main queue, so the session can stop cleanly, restore the
/// terminal and report, instead of dying mid-write: the `stopping` signals always (each
/// also raises `LuaInterrupt`, which stops running Lua at once), and SIGTSTP, SIGCONT
/// and SIGWINCH while the live display runs. A real handler (not
/// SIG_IGN plus a dispatch signal source, whose registration is asynchronous and loses a
/// signal that arrives first) writes the signal's number to a pipe that a read source on
/// the main queue drains.
@MainActor
final class SignalTraps {
    private let source: DispatchSourceRead

    /// The signals that end a run: Ctrl-C, `kill`, the terminal closing, Ctrl-\\.
    static let stopping = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    init(_ signals: [Int32] = stopping, _ handler: @escaping @MainActor @Sendable (Int32) -> Void) {
        LuaInterrupt.prepare()
        var ends: [Int32] = [0, 0]
        pipe(&ends)
        signalPipeInput.store(ends[1], ordering: .sequentiallyConsistent)
        // Made here, not by its first use in the handler (a lazy global's first use takes a lock).
        _ = lastStopping.load(ordering: .sequentiallyConsistent)
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        let output = ends[0]
        source = DispatchSource.makeReadSource(fileDescriptor: output, queue: .main)
        source.setEventHandler {
            var number: UInt8 = 0
            while read(output, &number, 1) == 1 {
                MainActor.assumeIsolated { handler(Int32(number)) }
            }
        }
        source.resume()
        for number in signals {
            SignalTraps.trap(number)
        }
    }

    private static func trap(_ number: Int32) {
        SignalHandler.install(number, flags: SA_RESTART) { number in
            if number == SIGINT || number == SIGTERM || number == SIGHUP || number == SIGQUIT {
                lastStopping.store(number, ordering: .sequentiallyConsistent)
                LuaInterrupt.request()
            }
            var byte = UInt8(truncatingIfNeeded: number)
            _ = write(signalPipeInput.load(ordering: .sequentiallyConsistent), &byte, 1)
        }
    }

    /// The latest stopping signal received, whether or not the main queue has seen it.
    static var received: Int32? {
        let number = lastStopping.load(ordering: .sequentiallyConsistent)
        return number == 0 ? nil : number
    }

    /// Stops the process as Ctrl-Z would, once the caller has tidied up; returns after
    /// SIGCONT (`fg`), with the trap back in place.
    static func stopProcess() {
        SignalHandler.reset(SIGTSTP)
        raise(SIGTSTP)
        trap(SIGTSTP)
    }

    isolated deinit {
        source.cancel()
    }
}
