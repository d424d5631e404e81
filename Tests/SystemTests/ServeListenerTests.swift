import FlyingSocks
import Foundation
@testable import WebRemote
import XCTest

/// The accept loop of `run --serve` on a real listening socket: what ends it unasked is
/// reported (the run shows it as a warning and a `serve_stopped` event), and stopping it
/// as the workout ends is not.
final class ServeListenerTests: XCTestCase {
    func listening() throws -> (Listener, Task<Void, Never>) {
        let pool = PatientPool(base: SocketPool<ePoll>.ePoll(), patience: 1)
        let socket = try Socket(domain: Int32(AF_INET))
        try socket.bind(to: try sockaddr_in.inet(ip4: "127.0.0.1", port: 0))
        try socket.listen()
        let ready = expectation(description: "pool ready")
        Task {
            try? await pool.prepare()
            ready.fulfill()
        }
        wait(for: [ready], timeout: 10)
        let running = Task { try? await pool.run() }
        return (Listener(socket: try AsyncSocket(socket: socket, pool: pool)), Task { _ = await running.result })
    }

    var routes: Routes {
        Routes(token: "x", hosts: ServedHosts(served: "127.0.0.1"),
               feed: MainActor.assumeIsolated { EventFeed(snapshot: { fatalError("no viewer") }) },
               classFeed: ClassFeed(roster: { fatalError("no viewer") }),
               snapshot: { fatalError("no request") }, control: { _ in })
    }

    func testAListeningSocketLostIsReported() throws {
        let (listener, pool) = try listening()
        defer { pool.cancel() }
        let reported = expectation(description: "reported")
        let reason = Locked("")
        let routes = self.routes
        let loop = Task {
            await listener.run(routes: routes) { text in
                reason.value = text
                reported.fulfill()
            }
        }
        // Something other than the workout's end takes the socket away.
        shutdown(listener.socket.socket.file.rawValue, Int32(SHUT_RDWR))
        wait(for: [reported], timeout: 10)
        XCTAssertTrue(reason.value.hasPrefix("the server stopped accepting connections"), reason.value)
        loop.cancel()
    }

    func testStoppingAtTheEndIsNotReported() throws {
        let (listener, pool) = try listening()
        defer { pool.cancel() }
        let reported = Locked(false)
        let routes = self.routes
        let ended = expectation(description: "the loop ended")
        Task {
            await listener.run(routes: routes) { _ in reported.value = true }
            ended.fulfill()
        }
        listener.stop()
        wait(for: [ended], timeout: 10)
        XCTAssertFalse(reported.value)
    }
}
