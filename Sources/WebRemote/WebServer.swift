import FlyingFox
import FlyingSocks
import Foundation
import IntervalEngine

/// `run --serve`: an HTTP server on its own threads (FlyingFox's tasks) in front of a
/// session that lives on the main thread. Every request hops to the main queue to read
/// a snapshot or apply a command, the way a key does, and comes back; nothing the
/// server does waits on the run loop or makes it wait.
public final class WebServer: Sendable {
    /// The page's address with its token: what the display's QR code and the `serve`
    /// event give.
    public let url: String
    public let address: ServeAddress
    private let server: HTTPServer
    private let feed: MainThreadOnly<EventFeed>

    /// Seconds a connection may make no progress, reading or writing.
    static let patience = 10.0

    /// Starts listening on `address` (port 0: a free one) and returns once it does.
    /// `snapshot` and `control` are called on the main thread only. A port in use or an
    /// address that is not this machine's is a usage error naming it.
    public init(address: ServeAddress, token: String, feed: EventFeed,
                snapshot: @escaping () -> SessionSnapshot,
                control: @escaping (SessionCommand) -> Void) throws(ServeError) {
        let socketAddress: sockaddr_in
        do {
            socketAddress = try sockaddr_in.inet(ip4: address.host, port: address.port)
        } catch {
            throw .usage("--serve \(address): not an IPv4 address")
        }
        let routes = Routes(token: token, feed: MainThreadOnly(feed), snapshot: MainThreadOnly(snapshot),
                            control: MainThreadOnly(control))
        let config = HTTPServer.Configuration(
            address: socketAddress, timeout: WebServer.patience,
            sharedRequestBufferSize: Routes.largestBody, sharedRequestReplaySize: Routes.largestBody,
            pool: PatientPool(base: HTTPServer.defaultPool(), patience: WebServer.patience),
            logger: .disabled)
        let server = HTTPServer(config: config, handler: ClosureHTTPHandler { request in await routes.respond(request) })
        let port = try WebServer.listen(server, address: address)
        self.server = server
        self.feed = MainThreadOnly(feed)
        var shown = address
        shown.port = port
        if address.isEverywhere { shown.host = LANAddress.first() ?? "127.0.0.1" }
        self.address = shown
        url = "http://\(shown)/?token=\(token)"
    }

    /// Runs the server on its own task and waits (on this thread, before the run loop
    /// starts) until it listens or fails; returns the port it listens on.
    private static func listen(_ server: HTTPServer, address: ServeAddress) throws(ServeError) -> UInt16 {
        let outcome = Outcome()
        Task {
            do {
                try await server.run()
            } catch {
                outcome.settle(.failure(error))
            }
        }
        Task {
            do {
                try await server.waitUntilListening(timeout: 10)
                if case .ip4(_, let port)? = await server.listeningAddress {
                    outcome.settle(.success(port))
                } else {
                    outcome.settle(.failure(SocketError.unsupportedAddress))
                }
            } catch {
                outcome.settle(.failure(error))
            }
        }
        switch outcome.wait() {
        case .success(let port):
            return port
        case .failure(SocketError.failed(type: "Bind", errno: EADDRINUSE, _)):
            throw .usage("--serve \(address): the port \(address.port) is in use (another program, or another workout serving?)")
        case .failure(SocketError.failed(type: "Bind", errno: EADDRNOTAVAIL, _)):
            throw .usage("--serve \(address): \(address.host) is not an address of this machine")
        case .failure(SocketError.failed(type: "Bind", errno: EACCES, _)):
            throw .usage("--serve \(address): the port \(address.port) needs privileges; use one above 1023")
        case .failure(let error):
            throw .failure("--serve \(address): cannot listen (\(error.localizedDescription))")
        }
    }

    /// The workout is over: viewers get the last events and their streams end, and the
    /// answers being sent (the 204 of the `quit` that ended it) go out. Turns the run loop
    /// (requests may still hop to it) up to `seconds` while the server stops.
    public func finish(within seconds: Double) {
        feed.value.finish()
        let stopped = Flag()
        let server = self.server
        Task {
            await server.stop(timeout: seconds)
            stopped.set()
        }
        let end = Date().addingTimeInterval(seconds + 0.1)
        while !stopped.isSet, Date() < end {
            _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.005))
        }
    }
}

/// Set once by one thread, read by another.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }

    var isSet: Bool { lock.withLock { value } }
}

/// The first answer of two racing tasks, waited for on a thread that is not theirs.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<UInt16, any Error>?

    func settle(_ value: Result<UInt16, any Error>) {
        lock.lock()
        defer { lock.unlock() }
        guard result == nil else { return }
        result = value
        done.signal()
    }

    func wait() -> Result<UInt16, any Error> {
        done.wait()
        lock.lock()
        defer { lock.unlock() }
        return result!
    }
}
