import Foundation
import XCTest

/// A real MQTT broker of the test's own: Debian's `mosquitto` on a free port of
/// 127.0.0.1 with a private config file (no persistence, anonymous clients, or a password
/// file; plain, or TLS with a certificate from a CA of its own), in a scratch directory. `mosquitto_sub` and `mosquitto_pub` are the clients.
/// Killed when the test lets go of it (and by `Daemon`'s exit handler if a test dies), so
/// no broker outlives the tests; `restart()` starts it again on the same port, as a broker
/// that went away and came back. A test class shares one (`perClass()`), each test under a
/// topic prefix of its own (`PrivateBroker.prefix()`), so no test sees another's messages,
/// retained ones included; a test that stops its broker, or needs a login or TLS, starts its own.
final class PrivateBroker {
    let directory: URL
    let port: Int
    /// `user:password` clients must give, if any.
    let login: (user: String, password: String)?
    /// The listener's TLS certificates (its CA is what clients must trust), if it speaks TLS.
    let certificates: PrivateCertificates?
    private var daemon: Daemon?
    private var subscribers: [Daemon] = []

    /// `certificateNames`: the names the broker's certificate is for (another host's, to
    /// see a client refuse a certificate its CA signed for someone else).
    /// `settings`: more lines of `mosquitto.conf` (what the docs tell users to set).
    init(login: (user: String, password: String)? = nil, tls: Bool = false,
         certificateNames: String = PrivateCertificates.loopbackNames, settings: [String] = []) throws {
        self.login = login
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("workout-mqtt-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = try Self.freePort()
        certificates = tls ? try PrivateCertificates(in: directory, names: certificateNames) : nil
        var lines = ["listener \(port) 127.0.0.1"]
        if let certificates {
            lines += ["cafile \(certificates.caFile)", "certfile \(certificates.certificateFile)",
                      "keyfile \(certificates.keyFile)"]
        }
        lines += [
            "persistence false",
            "log_dest stderr",
            "log_type error",
            "log_type warning",
            "log_type notice",
            // mosquitto started as root would switch to the mosquitto user: stay who we are.
            "user \(String(cString: getpwuid(geteuid()).pointee.pw_name))",
        ]
        lines += settings
        if let login {
            let passwords = directory.appendingPathComponent("passwords").path
            let made = try spawn(Self.program("mosquitto_passwd"), ["-b", "-c", passwords, login.user, login.password])
            guard made.status == 0 else { throw PrivateSoundServer.Failure("mosquitto_passwd failed") }
            lines += ["allow_anonymous false", "password_file \(passwords)"]
        } else {
            lines += ["allow_anonymous true"]
        }
        try (lines.joined(separator: "\n") + "\n").write(to: directory.appendingPathComponent("mosquitto.conf"),
                                                          atomically: false, encoding: .utf8)
        try start()
    }

    var url: String { "\(certificates == nil ? "mqtt" : "mqtts")://127.0.0.1:\(port)" }

    /// A topic prefix no other test uses: `gym` and eight hex digits.
    static func prefix(_ stem: String = "gym") -> String { stem + UUID().uuidString.prefix(8).lowercased() }

    /// One plain broker for a test class (`PerClass`).
    static func perClass() -> PerClass<PrivateBroker> {
        PerClass(start: { try PrivateBroker() }, stop: { $0.shutDown() })
    }

    /// Starts mosquitto and waits until it takes connections.
    func start() throws {
        let log = directory.appendingPathComponent("broker.log").path
        let broker = try Daemon(Self.program("mosquitto"), ["-c", directory.appendingPathComponent("mosquitto.conf").path],
                                environment: [:], log: log)
        daemon = broker
        let listening = eventually {
            guard broker.isRunning else { return true }
            return Self.accepts(port)
        }
        guard listening, broker.isRunning else {
            let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw PrivateSoundServer.Failure("mosquitto did not start on port \(port): \(said)")
        }
    }

    /// Kills the broker (SIGKILL: it goes away as a crashed or unplugged one does).
    func stop() {
        daemon?.kill()
        daemon = nil
    }

    func restart() throws {
        stop()
        try start()
    }

    /// Kills every subscriber: a test of a class that shares the broker lets go of its own.
    func dropSubscribers() {
        for subscriber in subscribers { subscriber.kill() }
        subscribers = []
    }

    /// Kills the broker and every subscriber.
    func shutDown() {
        dropSubscribers()
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { shutDown() }

    /// What `mosquitto_sub` and `mosquitto_pub` need to get in: the login, and the CA.
    private var credentials: [String] {
        (login.map { ["-u", $0.user, "-P", $0.password] } ?? []) + (certificates.map { ["--cafile", $0.caFile] } ?? [])
    }

    /// `mosquitto_sub -v` on `topics`, its lines (`topic payload`) read as they come.
    /// Returns once it is subscribed: it has seen a retained message of its own.
    func subscribe(_ topics: [String]) throws -> Subscription {
        let marker = "test/ready/\(UUID().uuidString.prefix(8))"
        try publish(marker, "ready", retain: true)
        let arguments = ["-h", "127.0.0.1", "-p", String(port), "-v"] + credentials
            + ([marker] + topics).flatMap { ["-t", $0] }
        let daemon = try Daemon(Self.program("mosquitto_sub"), arguments, environment: [:], capture: true)
        subscribers.append(daemon)
        let subscription = Subscription(daemon: daemon, marker: marker)
        guard eventually(timeout: 10, { subscription.all.contains { $0.topic == marker } }) else {
            throw PrivateSoundServer.Failure("mosquitto_sub did not subscribe")
        }
        return subscription
    }

    /// `mosquitto_pub`, to its end.
    func publish(_ topic: String, _ message: String, retain: Bool = false) throws {
        try publish(topic, ["-m", message], retain: retain)
    }

    /// `mosquitto_pub -f FILE`: a message too large for a command line.
    func publish(_ topic: String, file: String, retain: Bool = false) throws {
        try publish(topic, ["-f", file], retain: retain)
    }

    private func publish(_ topic: String, _ message: [String], retain: Bool) throws {
        let arguments = ["-h", "127.0.0.1", "-p", String(port), "-t", topic] + message + credentials
            + (retain ? ["-r"] : [])
        let result = try spawn(Self.program("mosquitto_pub"), arguments, printing: false)
        guard result.status == 0 else { throw PrivateSoundServer.Failure("mosquitto_pub exited \(result.status)") }
    }

    /// The messages one `mosquitto_sub` has printed, the marker left out.
    struct Subscription {
        let daemon: Daemon
        let marker: String

        struct Message: Equatable {
            var topic: String
            var payload: String
        }

        fileprivate var all: [Message] {
            // A line is complete once its newline has come.
            let text = String(decoding: daemon.captured, as: UTF8.self)
            return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
                let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
                return Message(topic: String(parts[0]), payload: parts.count > 1 ? String(parts[1]) : "")
            }
        }

        var messages: [Message] { all.filter { $0.topic != marker } }

        func payloads(_ topic: String) -> [String] { messages.filter { $0.topic == topic }.map(\.payload) }

        func stop() { daemon.kill() }
    }

    static func program(_ name: String) throws -> String {
        guard let path = ["/usr/sbin/", "/usr/bin/", "/sbin/", "/bin/"].map({ $0 + name })
            .first(where: FileManager.default.isExecutableFile(atPath:)) else { throw Missing(program: name) }
        return path
    }

    /// A port nobody listens on now: the kernel's pick for a socket bound to port 0.
    private static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: 0,
                                  sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else { throw PrivateSoundServer.Failure("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts a TCP connection on 127.0.0.1:`port`.
    static func accepts(_ port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: UInt16(port).bigEndian,
                                  sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
