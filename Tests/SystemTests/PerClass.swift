import Foundation

/// One server for a test class (a broker, a bus with its player), started by the first test
/// that asks and stopped by the class's `tearDown()`, so none outlives the class: the
/// tests share it, each isolated by a name of its own (a topic prefix, a scratch folder),
/// as `SoundServerTests` shares its sound server. Each system test class runs in a process
/// of its own (Tests/lanes.py), so a class's server is that process's. One that would not
/// start fails every test that asks, with its error.
final class PerClass<Server: AnyObject>: Sendable {
    private let held = Locked<Result<Server, Error>?>(nil)
    private let start: @Sendable () throws -> Server
    private let stop: @Sendable (Server) -> Void

    init(start: @escaping @Sendable () throws -> Server, stop: @escaping @Sendable (Server) -> Void) {
        self.start = start
        self.stop = stop
    }

    func get() throws -> Server {
        if held.value == nil { held.value = Result { try start() } }
        return try held.value!.get()
    }

    /// Stops it, if it was started.
    func shutDown() {
        if case .success(let server)? = held.value { stop(server) }
        held.value = nil
    }
}
