import Dispatch
import Foundation

/// Carries main-thread state into `@Sendable` handlers (signal sources, timers) that
/// Dispatch runs on the main queue.
final class MainThreadBox<Value>: @unchecked Sendable {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// The write end of the self-pipe the signal handler writes to.
nonisolated(unsafe) private var signalPipeInput: Int32 = -1

/// Signals as events on the main queue, so the session can stop cleanly, restore the
/// terminal and report, instead of dying mid-write: SIGINT and SIGTERM always, and
/// SIGTSTP, SIGCONT and SIGWINCH while the live display runs. A real handler (not
/// SIG_IGN plus a dispatch signal source, whose registration is asynchronous and loses a
/// signal that arrives first) writes the signal's number to a pipe that a read source on
/// the main queue drains.
final class SignalTraps {
    private let source: DispatchSourceRead
    private let pipeOutput: Int32

    init(_ signals: [Int32] = [SIGINT, SIGTERM], _ handler: @escaping @Sendable (Int32) -> Void) {
        var ends: [Int32] = [0, 0]
        pipe(&ends)
        pipeOutput = ends[0]
        signalPipeInput = ends[1]
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        let output = ends[0]
        source = DispatchSource.makeReadSource(fileDescriptor: output, queue: .main)
        source.setEventHandler {
            var number: UInt8 = 0
            while read(output, &number, 1) == 1 {
                handler(Int32(number))
            }
        }
        source.resume()
        for number in signals {
            SignalTraps.trap(number)
        }
    }

    private static func trap(_ number: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { number in
            var byte = UInt8(truncatingIfNeeded: number)
            _ = write(signalPipeInput, &byte, 1)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(number, &action, nil)
    }

    /// Stops the process as Ctrl-Z would, once the caller has tidied up; returns after
    /// SIGCONT (`fg`), with the trap back in place.
    static func stopProcess() {
        signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)
        trap(SIGTSTP)
    }

    deinit {
        source.cancel()
    }
}

/// Turns the main run loop until `done()` holds. The run loop does not return just
/// because a timer fired, so whoever makes `done()` true also calls `wake()`.
enum MainLoop {
    static func run(until done: () -> Bool) {
        while !done() {
            _ = RunLoop.main.run(mode: .default, before: .distantFuture)
        }
    }

    static func wake() {
        DispatchQueue.main.async {}
    }
}
