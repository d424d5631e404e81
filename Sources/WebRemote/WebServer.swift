import FlyingSocks
import Foundation
import IntervalEngine
import Serving
import WorkoutValues

/// `run --serve`: an HTTP server on its own threads (Swift-concurrency tasks over the
/// socket library's epoll pool) in front of a session that lives on the main thread.
/// Every request hops to the main queue to read a snapshot or apply a command, the way a
/// key does, and comes back; nothing the server does waits on the run loop or makes it
/// wait. The HTTP itself is read and written here (`Connection`, `RequestHead`), so that
/// every bound a client meets is this program's.
public final class WebServer: Sendable {
    /// The page's address with its token: what the display's QR code and the `serve`
    /// event give.
    public let url: String
    public let address: ServeAddress
    private let listener: Listener
    private let feed: EventFeed
    private let classFeed: ClassFeed
    private let tasks: Tasks

    /// Seconds a connection may make no progress, reading or writing, and so the longest a
    /// kept-alive connection waits for its next request.
    static let patience = 10.0

    /// Starts listening on `address` (port 0: a free one) and returns once it does.
    /// `snapshot` and `control` are called on the main thread only, and so is `stopped`,
    /// if the server stops before the workout does; `participants` (a class's roster as
    /// `/class.json`, with `run --mqtt`) on the server's own threads, and `watchParticipants`
    /// once, here, with what the class page's feed does as each participant changes. A port in use or an address that is not
    /// this machine's is a usage error naming it.
    public init(address: ServeAddress, token: String, feed: EventFeed,
                snapshot: @escaping @MainActor @Sendable () -> SessionSnapshot,
                control: @escaping @MainActor @Sendable (SessionCommand) -> Void,
                stopped: @escaping @MainActor @Sendable (String) -> Void = { _ in },
                participants: (@Sendable () -> String)? = nil,
                watchParticipants: (@Sendable (@escaping @Sendable (String) -> Void) -> Void)? = nil) throws(ServeError) {
        let socketAddress: sockaddr_in
        do {
            socketAddress = try sockaddr_in.inet(ip4: address.host, port: address.port)
        } catch {
            throw .usage("--serve \(address): not an IPv4 address")
        }
        let pool = PatientPool(base: SocketPool<ePoll>.ePoll(), patience: WebServer.patience)
        let socket: Socket
        do {
            socket = try Socket(domain: Int32(AF_INET))
            try socket.setValue(true, for: .localAddressReuse)
            // Set before any connection is accepted: every one inherits it (PatientPool).
            try socket.setValue(PatientPool.sendBuffer, for: Int32SocketOption(name: SO_SNDBUF))
            try socket.bind(to: socketAddress)
            try socket.listen()
        } catch SocketError.failed(type: "Bind", errno: EADDRINUSE, _) {
            throw .usage("--serve \(address): the port \(address.port) is in use (another program, or another workout serving?)")
        } catch SocketError.failed(type: "Bind", errno: EADDRNOTAVAIL, _) {
            throw .usage("--serve \(address): \(address.host) is not an address of this machine")
        } catch SocketError.failed(type: "Bind", errno: EACCES, _) {
            throw .usage("--serve \(address): the port \(address.port) needs privileges; use one above 1023")
        } catch {
            throw .failure("--serve \(address): cannot listen (\(error.localizedDescription))")
        }
        guard case .ip4(_, let port)? = try? socket.sockname(),
              let listening = try? AsyncSocket(socket: socket, pool: pool),
              WebServer.prepare(pool) else {
            try? socket.close()
            throw .failure("--serve \(address): cannot listen")
        }
        var shown = address
        shown.port = port
        if address.isEverywhere { shown.host = LANAddress.first() ?? "127.0.0.1" }
        self.address = shown
        url = "http://\(shown)/?token=\(token)"
        listener = Listener(socket: listening)
        self.feed = feed
        let classFeed = ClassFeed(roster: participants ?? { ClassPage.noClass })
        self.classFeed = classFeed
        watchParticipants?({ classFeed.changed($0) })
        let routes = Routes(token: token, hosts: ServedHosts(served: shown.host), feed: feed, classFeed: classFeed,
                            snapshot: snapshot, control: control, participants: participants)
        let listener = self.listener
        let reportOnMain: @Sendable (String) -> Void = { reason in
            DispatchQueue.main.async { MainActor.assumeIsolated { stopped(reason) } }
        }
        tasks = Tasks(pool: Task { try? await pool.run() },
                      server: Task {
                          await listener.run(routes: routes, stopped: reportOnMain)
                          try? listening.close()
                      })
    }

    /// Readies the pool (its epoll descriptor), waiting on this thread before the run loop
    /// starts.
    private static func prepare(_ pool: PatientPool) -> Bool {
        let done = DispatchSemaphore(value: 0)
        let ready = Counter()
        Task {
            if (try? await pool.prepare()) != nil { ready.add(1) }
            done.signal()
        }
        done.wait()
        return ready.value == 1
    }

    /// The workout is over: viewers get the last events and their streams end, and the
    /// answers being sent (the 204 of the `quit` that ended it) go out. Turns the run loop
    /// (requests may still hop to it) up to `seconds` while the connections end; those
    /// still open then (a client idling on a kept-alive connection) are cut.
    @MainActor
    public func finish(within seconds: Double) {
        feed.finish()
        classFeed.finish()
        listener.stop()
        let listener = self.listener
        let end = Date().addingTimeInterval(seconds)
        while listener.connections > 0, Date() < end {
            _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.005))
        }
        tasks.server.cancel()
        tasks.pool.cancel()
    }
}

/// The server's two long tasks: the pool's event loop and the accept loop.
private struct Tasks: Sendable {
    let pool: Task<Void, Never>
    let server: Task<Void, Never>
}
