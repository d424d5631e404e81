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

/// SIGINT and SIGTERM as events on the main queue, so the session can stop cleanly,
/// restore the terminal and report, instead of dying mid-write.
final class SignalTraps {
    private var sources: [DispatchSourceSignal] = []

    init(_ handler: @escaping @Sendable (Int32) -> Void) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler { handler(number) }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        for source in sources { source.cancel() }
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
