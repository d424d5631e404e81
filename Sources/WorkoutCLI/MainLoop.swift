import Dispatch
import Foundation

/// Carries main-thread state into `@Sendable` handlers (signal sources, timers, a warning
/// from another thread) that hand their work to the main queue: the box is `@MainActor`,
/// so the compiler lets them read it only there.
@MainActor
final class MainThreadBox<Value> {
    var value: Value

    init(_ value: Value) {
        self.value = value
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
