import FlyingSocks
import Foundation
import Synchronization

/// The listening socket's loop: each connection accepted is served on a task of its own,
/// up to `limit` at once. A newcomer past the limit is closed at once (the newest is
/// dropped, so the backlog never fills with connections nobody serves), and running out
/// of descriptors (EMFILE) or memory only pauses accepting, for 50 ms doubling to a
/// second, instead of ending it: a flood of connections makes the server busy, never
/// gone. Anything else that ends the loop is reported through `stopped`.
final class Listener: Sendable {
    let socket: AsyncSocket
    let limit: Int
    private let open = Counter()
    private let stopping = Counter()

    init(socket: AsyncSocket, limit: Int = Listener.connectionLimit()) {
        self.socket = socket
        self.limit = limit
    }

    /// Connections at once: a quarter of the descriptors the process may open (the rest is
    /// for its files, the sound server, the programs it starts), at most 256 and at least 8.
    /// With the usual 1,024, 256; every connection is let go within seconds unless it is a
    /// viewer, of which there are at most 32.
    static func connectionLimit() -> Int {
        var limits = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return 64 }
        let descriptors = Int(clamping: limits.rlim_cur)
        return min(256, max(8, descriptors / 4))
    }

    /// Connections being served now.
    var connections: Int { open.value }

    func run(routes: Routes, stopped: @escaping @Sendable (String) -> Void) async {
        var pause = 0.05
        await withDiscardingTaskGroup { group in
            while true {
                do {
                    let connection = try await socket.accept()
                    pause = 0.05
                    guard open.add(1, ifBelow: limit) else {
                        try? connection.close()
                        continue
                    }
                    group.addTask { [open] in
                        await Connection(socket: connection, routes: routes).serve()
                        open.add(-1)
                    }
                } catch SocketError.failed(_, let number, _) where [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(number) {
                    try? await Task.sleep(for: .seconds(pause))
                    pause = min(pause * 2, 1)
                } catch SocketError.failed(_, let number, _) where [ECONNABORTED, EINTR, EPROTO, EPERM].contains(number) {
                    continue
                } catch {
                    if stopping.value == 0 && !Task.isCancelled {
                        stopped("the server stopped accepting connections (\(error.localizedDescription))")
                    }
                    return
                }
            }
        }
    }

    /// Stops accepting: the loop ends without a report; connections being served go on.
    func stop() {
        stopping.add(1)
        shutdown(socket.socket.file.rawValue, Int32(SHUT_RDWR))
    }
}

/// A count shared by tasks, under a `Mutex`.
final class Counter: Sendable {
    private let count = Mutex(0)

    var value: Int { count.withLock { $0 } }

    func add(_ amount: Int) {
        count.withLock { $0 += amount }
    }

    /// Adds `amount` if the count stays below `limit`; whether it did.
    func add(_ amount: Int, ifBelow limit: Int) -> Bool {
        count.withLock { count in
            guard count + amount <= limit else { return false }
            count += amount
            return true
        }
    }
}
