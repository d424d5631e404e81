import Foundation
import XCTest

/// A real `workout run --serve 127.0.0.1:0 --json` for the serving tests: its JSON lines
/// as they come, the page's URL from its `serve` event, and plain HTTP over a socket.
final class ServingWorkout: @unchecked Sendable {
    let process = Process()
    private(set) var url = ""
    private(set) var port: UInt16 = 0
    private(set) var token = ""
    private let output = Pipe()
    private let errors = Pipe()
    private let lock = NSLock()
    private var received: [String] = []
    private var ended = false

    /// `variables` are set (nil: unset) after the usual ones; `descriptorLimit` is the
    /// process's limit of open files (`ulimit -n`), as a desktop session might set it.
    /// With `dataHome`, the run is recorded in the history there (`XDG_DATA_HOME`).
    init(_ routine: String, _ arguments: [String] = [], config: URL? = nil, variables: [String: String?] = [:],
         descriptorLimit: Int? = nil, directory: URL? = nil, dataHome: URL? = nil) throws {
        if let directory { process.currentDirectoryURL = directory }
        let command = ["run", routine, "--serve", "127.0.0.1:0", "--json"]
            + (dataHome == nil ? ["--no-history"] : []) + arguments
        if let descriptorLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", WorkoutBinary.binary] + command
        } else {
            process.executableURL = URL(fileURLWithPath: WorkoutBinary.binary)
            process.arguments = command
        }
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        if let dataHome { environment["XDG_DATA_HOME"] = dataHome.path }
        environment["XDG_CONFIG_HOME"] = (config ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("workout-serve-config")).path
        for (name, value) in variables { environment[name] = value }
        process.environment = environment
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let reader = output.fileHandleForReading
        Thread.detachNewThread { [self] in
            var pending = Data()
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                pending += chunk
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending = Data(pending[(newline + 1)...])
                    lock.withLock { received.append(line) }
                }
            }
            lock.withLock { ended = true }
        }
        var serve: [String: Any]?
        eventually(timeout: 20, every: 0.02) {
            serve = events.first { $0["event"] as? String == "serve" }
            return serve != nil
        }
        guard let serve, let url = serve["url"] as? String, let components = URLComponents(string: url),
              let port = components.port, let token = components.queryItems?.first(where: { $0.name == "token" })?.value
        else {
            process.terminate()
            throw ServeTestError("no serve event: \(lines) \(String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self))")
        }
        self.url = url
        self.port = UInt16(port)
        self.token = token
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    var lines: [String] { lock.withLock { received } }

    var events: [[String: Any]] {
        lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Waits up to `seconds` for an event that `matches`.
    @discardableResult
    func waitFor(_ seconds: Double = 15, _ matches: ([String: Any]) -> Bool) -> [String: Any]? {
        var found: [String: Any]?
        eventually(timeout: seconds, every: 0.02) {
            found = events.first(where: matches)
            return found != nil
        }
        return found
    }

    /// Waits for the process to end; its exit status.
    func waitForExit(_ seconds: Double = 30) -> Int32? {
        guard eventually(timeout: seconds, every: 0.02, { !process.isRunning }) else { return nil }
        process.waitUntilExit()
        eventually(timeout: 5) { lock.withLock { ended } }
        return process.terminationStatus
    }

    /// One request on its own connection: the status, the headers (names in lower case)
    /// and the body.
    /// Quits the workout through the API, as the page's button does: 204, then the
    /// process ends with status 0.
    func quit(file: StaticString = #filePath, line: UInt = #line) throws {
        let response = try request("POST", "/control", headers: ["Authorization: Bearer \(token)"],
                                   body: #"{"action":"quit"}"#)
        XCTAssertEqual(response.status, 204, file: file, line: line)
        XCTAssertEqual(waitForExit(), 0, file: file, line: line)
    }

    func request(_ method: String, _ target: String, headers: [String] = [], body: String = "") throws -> RawResponse {
        try RawHTTP.request(port: port, method, target, headers: headers, body: body)
    }
}

struct ServeTestError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}

struct RawResponse {
    var status: Int
    var headers: [String: String]
    var body: String
}

/// HTTP/1.1 by hand over a loopback socket, so that a test controls every byte (a body
/// too large, a client that stops reading) and needs no HTTP client library.
enum RawHTTP {
    static func connect(port: UInt16, receiveBuffer: Int32? = nil) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ServeTestError("socket: \(errno)") }
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw ServeTestError("connect to 127.0.0.1:\(port): errno \(errno)")
        }
        return descriptor
    }

    static func send(_ descriptor: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            sent += count
        }
    }

    /// Everything until the server closes (or `limit` bytes, or the receive time-out).
    static func readAll(_ descriptor: Int32, limit: Int = 1 << 24) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while data.count < limit {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            data.append(contentsOf: buffer[..<count])
        }
        return data
    }

    static func request(port: UInt16, _ method: String, _ target: String, headers: [String] = [],
                        body: String = "") throws -> RawResponse {
        let descriptor = try connect(port: port)
        defer { close(descriptor) }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for header in headers { head += header + "\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.utf8.count)\r\n" }
        send(descriptor, head + "\r\n" + body)
        return parse(readAll(descriptor))
    }

    /// The body of a chunked response (after the head), its chunks joined; what
    /// follows the last whole chunk is left off.
    static func unchunked(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        guard var position = bytes.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound else { return Data() }
        var body = Data()
        while let end = bytes[position...].firstRange(of: Array("\r\n".utf8))?.lowerBound,
              let size = Int(String(decoding: bytes[position..<end], as: UTF8.self), radix: 16), size > 0,
              end + 2 + size <= bytes.count {
            body.append(contentsOf: bytes[(end + 2)..<(end + 2 + size)])
            position = end + 2 + size + 2
            guard position <= bytes.count else { break }
        }
        return body
    }

    static func parse(_ data: Data) -> RawResponse {
        let text = String(decoding: data, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        let head = parts.first?.components(separatedBy: "\r\n") ?? []
        let status = head.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return RawResponse(status: status, headers: headers, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }
}

/// An event stream read as it comes on its own thread, with when each text first arrived.
final class FeedReader: @unchecked Sendable {
    private let descriptor: Int32
    private let lock = NSLock()
    private var received = ""
    private var arrivals: [(count: Int, at: Date)] = []

    init(port: UInt16, target: String) throws {
        descriptor = try RawHTTP.connect(port: port)
        RawHTTP.send(descriptor, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        let descriptor = self.descriptor
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = recv(descriptor, &buffer, buffer.count, 0)
                guard count > 0 else { Glibc.close(descriptor); break }
                let now = Date()
                lock.withLock {
                    received += String(decoding: buffer[..<count], as: UTF8.self)
                    arrivals.append((received.utf8.count, now))
                }
            }
        }
    }

    var text: String { lock.withLock { received } }

    /// When `wanted` had arrived whole (waiting up to 10 s for it); nil if it never did.
    func time(of wanted: String) -> Date? {
        guard eventually(timeout: 10, every: 0.002, { text.contains(wanted) }) else { return nil }
        return lock.withLock {
            guard let range = received.range(of: wanted) else { return nil }
            let end = received.utf8.distance(from: received.startIndex, to: range.upperBound)
            return arrivals.first { $0.count >= end }?.at
        }
    }

    /// Ends the connection; the reading thread closes the socket.
    func close() { shutdown(descriptor, Int32(SHUT_RDWR)) }
}
