import FlyingSocks
import Foundation

/// The socket library's epoll pool with a time limit on every wait of a connection, so
/// that no client holds a connection by sending or reading slowly. Each wait lasts at most
/// `patience` seconds without progress, and never past the deadline of what the waiting
/// task is doing (`PatientPool.deadline`: the whole request, or one write to a viewer);
/// past either, the connection is ended. The listening socket waits as long as it likes,
/// and so does a viewer's watch for the end of its connection (`PatientPool.waitsForever`).
struct PatientPool: AsyncSocketPool {
    let base: any AsyncSocketPool
    let patience: Double

    /// Each connection's kernel send buffer, fixed (the kernel doubles it) instead of
    /// growing to 4 MiB: a viewer that stops reading fills it and its feed's queue in
    /// under 400 KiB, and 32 of them hold a few MiB of the kernel's memory. It is set on
    /// the listening socket before `listen`, which every accepted connection inherits: set
    /// at the listener's first wait instead, a viewer that connected before that wait was
    /// accepted with a buffer free to grow, took a whole 2 MB feed and was never dropped
    /// (`ServeHTTPTests`' stalled viewer, on a busy machine).
    static let sendBuffer: Int32 = 64 * 1024

    /// When what the current task is doing must be done by.
    @TaskLocal static var deadline: ContinuousClock.Instant?
    /// Set for a wait that has no limit.
    @TaskLocal static var waitsForever = false

    func prepare() async throws { try await base.prepare() }

    func run() async throws { try await base.run() }

    func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
        if (try? socket.getValue(for: BoolSocketOption(name: SO_ACCEPTCONN))) == true {
            return try await base.suspendSocket(socket, untilReadyFor: events)
        }
        if PatientPool.waitsForever { return try await base.suspendSocket(socket, untilReadyFor: events) }
        var limit = Duration.seconds(patience)
        if let deadline = PatientPool.deadline {
            limit = min(limit, deadline - .now)
            guard limit > .zero else { throw SocketError.disconnected }
        }
        let base = self.base
        let wait = limit
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await base.suspendSocket(socket, untilReadyFor: events)
                return true
            }
            group.addTask {
                try await Task.sleep(for: wait)
                return false
            }
            let ready = try await group.next() ?? false
            group.cancelAll()
            if !ready { throw SocketError.disconnected }
        }
    }
}
