import Foundation
import XCTest

/// `run --serve` against clients that mean harm or are merely broken, on loopback: long
/// heads, slow requests, floods of connections past the descriptor limit, other sites'
/// pages, viewers that never read or vanish, addresses and token files that cannot work.
final class ServeHostileTests: XCTestCase {
    var routine: String { fixtures.appendingPathComponent("serve.lua").path }

    /// Sends `text` as it is on a connection of its own and reads the answer until the
    /// server closes it: the raw bytes.
    func exchange(_ workout: ServingWorkout, _ text: String) throws -> Data {
        let descriptor = try RawHTTP.connect(port: workout.port)
        defer { close(descriptor) }
        RawHTTP.send(descriptor, text)
        return RawHTTP.readAll(descriptor)
    }

    func testHostOriginHeadAndErrorBodies() throws {
        let workout = try ServingWorkout(routine)
        let here = "127.0.0.1:\(workout.port)"
        // Another site's name pointed here (DNS rebinding), even with the token.
        let rebound = RawHTTP.parse(try exchange(workout, "GET /state?token=\(workout.token) HTTP/1.1\r\n"
                                                 + "Host: attacker.example:\(workout.port)\r\nConnection: close\r\n\r\n"))
        XCTAssertEqual(rebound.status, 403)
        XCTAssertEqual(RawHTTP.parse(try exchange(workout, "GET /state?token=\(workout.token) HTTP/1.1\r\n"
                                                  + "Connection: close\r\n\r\n")).status, 403, "no Host")
        XCTAssertEqual(RawHTTP.parse(try exchange(workout, "GET /state?token=\(workout.token) HTTP/1.1\r\n"
                                                  + "Host: localhost:\(workout.port)\r\nConnection: close\r\n\r\n")).status, 200)
        // A POST from another site's page: refused, and nothing happens.
        let bearer = "Authorization: Bearer \(workout.token)"
        let foreign = try workout.request("POST", "/control", headers: [bearer, "Origin: http://attacker.example"],
                                          body: #"{"action":"pause"}"#)
        XCTAssertEqual(foreign.status, 403)
        XCTAssertEqual(try workout.request("POST", "/control", headers: [bearer, "Origin: null"],
                                           body: #"{"action":"pause"}"#).status, 403)
        XCTAssertNil(workout.events.first { $0["event"] as? String == "pause" }, "no foreign POST did anything")
        // The page's own POST names its own origin.
        XCTAssertEqual(try workout.request("POST", "/control", headers: [bearer, "Origin: http://\(here)"],
                                           body: #"{"action":"pause"}"#).status, 204)
        XCTAssertNotNil(workout.waitFor { $0["event"] as? String == "pause" })
        // HEAD is GET without the body.
        let page = try workout.request("GET", "/?token=\(workout.token)")
        let head = RawHTTP.parse(try exchange(workout, "HEAD /?token=\(workout.token) HTTP/1.1\r\nHost: \(here)\r\n"
                                              + "Connection: close\r\n\r\n"))
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.headers["content-length"], "\(page.body.utf8.count)")
        XCTAssertEqual(head.headers["content-type"], "text/html; charset=utf-8")
        XCTAssertEqual(head.body, "")
        // Error bodies do not echo the request: no escape sequence reaches a terminal
        // running curl.
        let missing = try exchange(workout, "GET /nothere%1b%5b31m?token=\(workout.token) HTTP/1.1\r\nHost: \(here)\r\n"
                                   + "Connection: close\r\n\r\n")
        XCTAssertEqual(RawHTTP.parse(missing).status, 404)
        XCTAssertFalse(missing.contains(0x1B), String(decoding: missing, as: UTF8.self))
        let action = try workout.request("POST", "/control", headers: [bearer], body: #"{"action":"\u001b[31m"}"#)
        XCTAssertEqual(action.status, 400)
        XCTAssertFalse(action.body.unicodeScalars.contains("\u{1B}"), action.body)
        XCTAssertTrue(action.body.contains("unknown action"), action.body)
        try workout.quit()
    }

    /// A request line of 1 MB without a newline, from two connections at once: each is
    /// refused with 431 once the bound is passed, and the server goes on answering.
    func testAHeadPastItsBoundIsRefusedWith431() throws {
        let workout = try ServingWorkout(routine)
        let answers = Locked([Int]())
        let group = DispatchGroup()
        for _ in 0..<2 {
            let descriptor = try RawHTTP.connect(port: workout.port)
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                let sender = Thread { RawHTTP.send(descriptor, "GET /" + String(repeating: "a", count: 1 << 20)) }
                sender.start()
                var head = [UInt8](repeating: 0, count: 12)
                let count = recv(descriptor, &head, head.count, Int32(MSG_WAITALL))
                let status = count == 12 ? Int(String(decoding: head[9..<12], as: UTF8.self)) ?? 0 : 0
                answers.mutate { $0.append(status) }
                shutdown(descriptor, Int32(SHUT_RDWR))
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(answers.value, [431, 431])
        XCTAssertEqual(try workout.request("GET", "/state?token=\(workout.token)").status, 200)
        try workout.quit()
    }

    /// One byte every half second: the request is not whole within its deadline, so the
    /// server closes the connection long before the client has sent 30 bytes.
    func testASlowRequestIsCutAtItsDeadline() throws {
        let workout = try ServingWorkout(routine)
        let descriptor = try RawHTTP.connect(port: workout.port)
        defer { close(descriptor) }
        let request = Array("GET /state?token=\(workout.token) HTTP/1.1\r\n".utf8)
        var sent = 0
        var closed = false
        while sent < 30, !closed {
            _ = request[sent...sent].withUnsafeBytes { send(descriptor, $0.baseAddress, 1, Int32(MSG_NOSIGNAL)) }
            sent += 1
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 500) > 0 {
                var byte: UInt8 = 0
                closed = recv(descriptor, &byte, 1, 0) <= 0
            }
        }
        XCTAssertTrue(closed, "still open after \(sent) bytes, one every half second")
        try workout.quit()
    }

    /// A viewer that closes its connection leaves at once: with the house full, the next
    /// viewer takes its place and nobody else's.
    func testAClosedViewersPlaceIsFreedAtOnce() throws {
        let workout = try ServingWorkout(routine)
        var viewers: [Int32] = []
        defer { viewers.forEach { close($0) } }
        for _ in 0..<32 {
            let (descriptor, status) = try openViewer(workout)
            XCTAssertEqual(status, 200)
            viewers.append(descriptor)
        }
        let leaving = viewers.remove(at: 5)
        let port = localPort(leaving)
        close(leaving)
        // The server has closed its side of that connection: no CLOSE_WAIT left.
        eventually(every: 0.02) { (try? closeWaits(serverPort: workout.port, clientPort: port)) == 0 }
        XCTAssertEqual(try closeWaits(serverPort: workout.port, clientPort: port), 0)
        let (newcomer, status) = try openViewer(workout)
        viewers.append(newcomer)
        XCTAssertEqual(status, 200)
        // The oldest viewer was not let go for it: it hears the next event.
        XCTAssertEqual(try workout.request("POST", "/control", headers: ["Authorization: Bearer \(workout.token)"],
                                           body: #"{"action":"pause"}"#).status, 204)
        XCTAssertTrue(readUntil(viewers[0], "\"event\":\"pause\""), "the oldest viewer still follows")
        try workout.quit()
    }

    /// A segment's info of 300 KiB: viewers get its events with the info shortened and
    /// marked, never an empty stream, and go on getting events.
    func testAHugeInfoIsShortenedForViewers() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("workout-info-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let big = directory.appendingPathComponent("big.lua")
        try """
            return workout { name = "Big", countdown = 0,
              work(60, "Read", { text = string.rep("x", 300 * 1024) }), rest(10) }
            """.write(to: big, atomically: false, encoding: .utf8)
        let workout = try ServingWorkout(big.path)
        let (viewer, status) = try openViewer(workout)
        defer { close(viewer) }
        XCTAssertEqual(status, 200)
        XCTAssertTrue(readUntil(viewer, "\"info_shortened\":true"), "the snapshot came, shortened")
        XCTAssertEqual(try workout.request("POST", "/control", headers: ["Authorization: Bearer \(workout.token)"],
                                           body: #"{"action":"pause"}"#).status, 204)
        XCTAssertTrue(readUntil(viewer, "\"event\":\"pause\""), "the viewer follows on")
        try workout.quit()
    }

    func testNonUnicastAddressesAreRefused() throws {
        for address in ["224.0.0.1:0", "255.255.255.255:0", "239.1.2.3:8417", "240.0.0.1:0"] {
            let result = try WorkoutBinary.run(["run", routine, "--serve", address, "--json"])
            XCTAssertEqual(result.status, 64, address)
            XCTAssertTrue(result.stderr.contains("is not one machine's address"), result.stderr)
            XCTAssertEqual(result.stdout, "", "nothing ran")
        }
    }

    /// The token's folder is found as the routines' are: `$HOME` honoured, a relative
    /// `XDG_CONFIG_HOME` ignored.
    func testTheTokenFollowsHomeAndTheXDGRules() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("workout-home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        for variables: [String: String?] in [["HOME": home.path, "XDG_CONFIG_HOME": nil],
                                             ["HOME": home.path, "XDG_CONFIG_HOME": "relative-config"]] {
            let workout = try ServingWorkout(routine, variables: variables, directory: home)
            let file = home.appendingPathComponent(".config/workout/serve-token").path
            XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), workout.token + "\n", "\(variables)")
            try workout.quit()
        }
        // (libpulse makes relative-config/pulse there: its own reading of the variable.)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.appendingPathComponent("relative-config/workout").path))
    }

    /// Token files that are not a token are refused with the way to make one, an oversized
    /// one without being read whole.
    func testTokenFilesThatCannotBeATokenAreRefused() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("workout-badtoken-\(UUID().uuidString)")
        let folder = config.appendingPathComponent("workout")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: config) }
        let file = folder.appendingPathComponent("serve-token")
        for (contents, message) in [(String(repeating: "a", count: 22), "does not hold a token"),
                                    (String(repeating: "ab", count: 16), "does not hold a token"),
                                    ("short", "does not hold a token"),
                                    (String(repeating: "Zq3-x_9", count: 300 * 1024 / 7), "larger than a token")] {
            try (contents + "\n").write(to: file, atomically: false, encoding: .utf8)
            chmod(file.path, 0o600)
            let result = try WorkoutBinary.run(["run", routine, "--serve", "127.0.0.1:0", "--json"],
                                               environment: ["XDG_CONFIG_HOME": config.path])
            XCTAssertEqual(result.status, 1, String(contents.prefix(40)))
            XCTAssertTrue(result.stderr.contains(message) && result.stderr.contains("--new-token"), result.stderr)
            XCTAssertLessThan(result.stderr.utf8.count, 1000, "the file is not printed")
        }
    }

    /// Connections past the descriptor limit (`ulimit -n 256`), held and churned by the
    /// tens of thousands: the server never stops accepting, and afterwards the page, the
    /// API and the workout all answer.
    func testTheServerOutlivesAFloodOfConnections() throws {
        let workout = try ServingWorkout(routine, descriptorLimit: 256)
        var held: [Int32] = []
        for _ in 0..<400 {
            guard let descriptor = try? RawHTTP.connect(port: workout.port) else { continue }
            held.append(descriptor)
        }
        XCTAssertGreaterThan(held.count, 256, "more connections than the server may open descriptors")
        // Connect and close, 20,000 times, while they are held (a reset, so that no port
        // waits in TIME_WAIT).
        var cycles = 0
        for _ in 0..<20_000 {
            guard let descriptor = try? RawHTTP.connect(port: workout.port) else { continue }
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            close(descriptor)
            cycles += 1
        }
        XCTAssertEqual(cycles, 20_000, "every connection was taken")
        held.forEach { close($0) }
        // Answering again: held connections are let go within the idle limit.
        var state: RawResponse?
        eventually(timeout: 30, every: 0.1) {
            state = try? workout.request("GET", "/state?token=\(workout.token)")
            return state?.status == 200
        }
        XCTAssertEqual(state?.status, 200)
        XCTAssertEqual(try workout.request("GET", "/?token=\(workout.token)").status, 200)
        XCTAssertNil(workout.events.first { $0["event"] as? String == "serve_stopped" })
        try workout.quit()
    }

    /// The server's process out of descriptors (its limit lowered, while it runs, to what
    /// it has open and 4 more): accepting pauses instead of ending, and once connections
    /// close the server answers again.
    func testRunningOutOfDescriptorsOnlyPausesAccepting() throws {
        let workout = try ServingWorkout(routine)
        let pid = workout.process.processIdentifier
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
        // util-linux's prlimit (Debian's essential packages have it).
        let lowered = try spawn("/usr/bin/prlimit", ["--pid", "\(pid)", "--nofile=\(open + 4):"])
        XCTAssertEqual(lowered.status, 0, lowered.output)
        var held: [Int32] = []
        for _ in 0..<20 { held.append(try RawHTTP.connect(port: workout.port)) }
        // The server took what it could: every descriptor it may have is open.
        eventually(every: 0.02) {
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0) >= open + 4
        }
        XCTAssertGreaterThanOrEqual(try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count, open + 4)
        held.forEach { close($0) }
        var state: RawResponse?
        eventually(timeout: 20, every: 0.1) {
            state = try? workout.request("GET", "/state?token=\(workout.token)")
            return state?.status == 200
        }
        XCTAssertEqual(state?.status, 200, "the server answers again")
        XCTAssertNil(workout.events.first { $0["event"] as? String == "serve_stopped" })
        try workout.quit()
    }

    // MARK: helpers

    func openViewer(_ workout: ServingWorkout) throws -> (Int32, Int) {
        let descriptor = try RawHTTP.connect(port: workout.port)
        RawHTTP.send(descriptor, "GET /events?token=\(workout.token) HTTP/1.1\r\nHost: 127.0.0.1:\(workout.port)\r\n\r\n")
        var head = [UInt8](repeating: 0, count: 12)
        let count = recv(descriptor, &head, head.count, Int32(MSG_WAITALL))
        return (descriptor, count == 12 ? Int(String(decoding: head[9..<12], as: UTF8.self)) ?? 0 : 0)
    }

    /// Reads a viewer's stream until `text` has come (true) or the stream ends or stalls
    /// for the receive time-out (false).
    func readUntil(_ descriptor: Int32, _ text: String) -> Bool {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { return false }
            data.append(contentsOf: buffer[..<count])
            if String(decoding: data, as: UTF8.self).contains(text) { return true }
        }
    }

    func localPort(_ descriptor: Int32) -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Connections from `clientPort` to `serverPort` that the server has not closed
    /// after the client did (CLOSE_WAIT in /proc/net/tcp).
    func closeWaits(serverPort: UInt16, clientPort: UInt16) throws -> Int {
        let table = try String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)
        let local = String(format: ":%04X", serverPort)
        let remote = String(format: ":%04X", clientPort)
        return table.split(separator: "\n").dropFirst().filter { line in
            let fields = line.split(separator: " ")
            return fields.count > 3 && fields[1].hasSuffix(local) && fields[2].hasSuffix(remote) && fields[3] == "08"
        }.count
    }
}
