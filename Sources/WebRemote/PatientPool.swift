import FlyingSocks
import Foundation

/// The HTTP library's socket pool with a time limit on every wait of a connection: a
/// client that sends its request too slowly, idles on a kept-alive connection, or stops
/// reading what it is sent is disconnected after `patience` seconds without progress.
/// The listening socket waits as long as it likes.
/// (The listening socket's waits are where the pool meets it before any connection, so
/// it also sizes the connections' send buffers there.) (FlyingFox's own timeout covers the
/// handler only, not reading the request or writing the response.)
struct PatientPool: AsyncSocketPool {
    let base: any AsyncSocketPool
    let patience: Double

    /// Each connection's kernel send buffer, fixed (the kernel doubles it) instead of
    /// growing to 4 MiB: a viewer that stops reading fills it and its feed's queue in
    /// under 400 KiB, and 32 of them hold a few MiB of the kernel's memory.
    static let sendBuffer: Int32 = 64 * 1024

    func prepare() async throws { try await base.prepare() }

    func run() async throws { try await base.run() }

    func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
        if (try? socket.getValue(for: BoolSocketOption(name: SO_ACCEPTCONN))) == true {
            // Connections accepted from now on inherit the listening socket's size, fixed
            // before anything is sent on them.
            try? socket.setValue(PatientPool.sendBuffer, for: Int32SocketOption(name: SO_SNDBUF))
            return try await base.suspendSocket(socket, untilReadyFor: events)
        }
        let base = self.base
        let patience = self.patience
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await base.suspendSocket(socket, untilReadyFor: events)
                return true
            }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(patience * 1e9))
                return false
            }
            let ready = try await group.next() ?? false
            group.cancelAll()
            // The library reads a disconnection as the end of the connection, quietly.
            if !ready { throw SocketError.disconnected }
        }
    }
}
