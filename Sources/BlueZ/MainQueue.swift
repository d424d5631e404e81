import Dispatch

/// Everything of BlueZ's client lives on the main thread, so a closure queued on the main
/// queue may capture it: the box tells Swift's checker so.
enum MainQueue {
    private final class Box: @unchecked Sendable {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    static func after(_ seconds: Double, _ body: @escaping () -> Void) {
        let box = Box(body)
        DispatchQueue.main.asyncAfter(deadline: .now() + seconds) { box.body() }
    }
}
