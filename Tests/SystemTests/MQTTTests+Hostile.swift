import Foundation
import Synchronization
import XCTest

/// A broker that misbehaves, and a CA option that names what is not a CA file: the run's
/// end stays bounded, and each failure is named for what it is.
extension MQTTTests {
    /// A "broker" that accepts one connection, answers its CONNECT with a CONNACK, and
    /// then never reads again (its receive buffer as small as the kernel allows), so
    /// whatever the client writes after the first few kilobytes waits in its own queue.
    final class StalledBroker: Sendable {
        let port: Int
        private let listener: Int32
        private let connection = Mutex<Int32>(-1)
        private let accepted = DispatchSemaphore(value: 0)

        init() throws {
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            self.listener = listener
            var small: Int32 = 1
            setsockopt(listener, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0, listen(listener, 1) == 0 else { throw PrivateSoundServer.Failure("cannot listen") }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
            }
            port = Int(UInt16(bigEndian: address.sin_port))
            Thread.detachNewThread { [self] in
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                var buffer = [UInt8](repeating: 0, count: 512)
                _ = read(client, &buffer, buffer.count)
                let connack: [UInt8] = [0x20, 0x02, 0x00, 0x00]
                _ = write(client, connack, connack.count)
                connection.withLock { $0 = client }
                accepted.signal()
            }
        }

        func waitForTheClient() -> Bool { accepted.wait(timeout: .now() + 10) == .success }

        func close() {
            let client = connection.withLock { $0 }
            if client >= 0 { Glibc.close(client) }
            Glibc.close(listener)
        }
    }

    /// A broker that took the connection and stopped reading held the run's exit in
    /// `mosquitto_loop_stop` until the keep-alive gave up (12 s after a 3 s workout): the
    /// end waits a second at most for the last words, then leaves the client behind.
    func testABrokerThatStopsReadingHoldsTheEndASecondAtMost() throws {
        let stalled = try StalledBroker()
        defer { stalled.close() }
        // A timeline of a few hundred kilobytes: far more than a buffer takes unread.
        let source = """
            local steps = {}
            for i = 1, 2000 do steps[#steps + 1] = work(0.001, "Step " .. i .. string.rep(" of many words", 8)) end
            steps[#steps + 1] = work(2, "Last")
            return workout { name = "Stalled", countdown = 0, table.unpack(steps) }
            """
        let run = try start(source, ["--mqtt", "mqtt://127.0.0.1:\(stalled.port)/gym"])
        XCTAssertTrue(stalled.waitForTheClient())
        XCTAssertTrue(eventually(timeout: 20) { run.stdout.contains(#""event":"workout_end""#) }, run.stdout)
        let ended = Date()
        XCTAssertEqual(run.wait(), 0, run.stderr)
        let took = Date().timeIntervalSince(ended)
        XCTAssertTrue(run.stdout.contains(#""completed":true"#), run.stdout)
        XCTAssertLessThan(took, 2, "the run's exit came \(took) s after its workout's end")
    }

    /// A certificate the CA given did sign, but for another host's name, is refused for
    /// that reason — not as "not signed by a CA trusted here", which sent users to check a
    /// CA that was right.
    func testACertificateForAnotherNameIsNamedForWhatItIs() throws {
        broker = try PrivateBroker(tls: true, certificateNames: "DNS:broker.elsewhere.example")
        let ca = try XCTUnwrap(broker.certificates).caFile
        let run = try start("return workout { name = \"Name\", countdown = 0, work(2) }",
                            ["--speed", "2", "--mqtt", broker.url + "/gym", "--mqtt-ca", ca])
        XCTAssertEqual(run.wait(), 0, run.stderr)
        let warnings = run.stderr.split(separator: "\n")
        XCTAssertEqual(warnings.count, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("the broker's certificate is not for 127.0.0.1"), run.stderr)
        XCTAssertFalse(run.stderr.contains("not signed by a CA trusted here"), run.stderr)
    }

    /// `--mqtt-ca` naming a FIFO waited on it forever before the start (libmosquitto opens
    /// the file), in `run`, in `follow` and from the athlete file: a CA is a regular file,
    /// said at once.
    func testACAThatIsAFIFOIsRefusedAtOnce() throws {
        let fifo = scratch.appendingPathComponent("ca.pem").path
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let source = "return workout { name = \"Ca\", work(1) }"
        let began = Date()
        let run = try start(source, ["--mqtt", "mqtts://127.0.0.1:1/gym", "--mqtt-ca", fifo])
        XCTAssertEqual(run.wait(), 64)
        XCTAssertTrue(run.stderr.contains("--mqtt-ca: the CA file \(fifo): not a regular file"), run.stderr)
        let follow = try BackgroundRun(WorkoutBinary.binary, ["follow", "mqtts://127.0.0.1:1/gym", "--mqtt-ca", fifo,
                                                              "--name", "ann"], environment: environment, in: scratch)
        XCTAssertEqual(follow.wait(), 64)
        XCTAssertTrue(follow.stderr.contains("not a regular file"), follow.stderr)
        let config = scratch.appendingPathComponent("config/workout")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "mqtt = mqtts://127.0.0.1:1/gym\nmqtt_ca = \(fifo)\n".write(to: config.appendingPathComponent("athlete"),
                                                                      atomically: false, encoding: .utf8)
        let fromFile = try start(source, [])
        XCTAssertEqual(fromFile.wait(), 1)
        XCTAssertTrue(fromFile.stderr.contains("athlete:2: mqtt_ca: the CA file \(fifo): not a regular file"), fromFile.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(began), 10)
    }
}

extension MQTTTests {
    /// The run's peak resident memory so far (`VmHWM`), in bytes; nil once it is gone.
    static func peakMemory(of pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kilobytes * 1024
    }

    /// libmosquitto reads a message whole before workout sees its size, so a 100 MB
    /// message on PREFIX/cmd took the run from 27 MB to 216 MB. The broker is what can
    /// refuse it unread: a broker set up as docs/mqtt.md says (its `max_packet_size`) drops
    /// it, and the run's memory stays where it was.
    func testAHundredMegabyteCommandIsRefusedByABrokerSetUpAsTheDocsSay() throws {
        let docs = try String(contentsOf: packageRoot.appendingPathComponent("docs/mqtt.md"), encoding: .utf8)
        let setting = try XCTUnwrap(docs.split(separator: "\n").first { $0.hasPrefix("max_packet_size ") },
                                    "docs/mqtt.md tells users to cap the broker's packets")
        broker = try PrivateBroker(settings: [String(setting)])
        let watch = try broker.subscribe(["gym/availability"])
        let run = try start("return workout { name = \"Big\", countdown = 0, work(4) }",
                            ["--mqtt", broker.url + "/gym"])
        XCTAssertTrue(eventually { watch.payloads("gym/availability") == ["online"] }, "\(watch.messages)")
        let before = try XCTUnwrap(Self.peakMemory(of: run.pid))
        let path = scratch.appendingPathComponent("big.json").path
        var big = Data(#"{"action":"pause","pad":""#.utf8)
        big.append(Data(repeating: UInt8(ascii: "x"), count: 100 * 1024 * 1024))
        big.append(Data(#""}"#.utf8))
        try big.write(to: URL(fileURLWithPath: path))
        // The broker closes the publisher's connection: mosquitto_pub's exit is not ours to check.
        try? broker.publish("gym/cmd", file: path)
        try FileManager.default.removeItem(atPath: path)
        try broker.publish("gym/cmd", #"{"action":"next"}"#)
        XCTAssertEqual(run.wait(), 0, run.stderr)
        let after = try XCTUnwrap(run.peakMemory)
        XCTAssertLessThan(after - before, 16 << 20, "the run's peak went from \(before) to \(after) bytes")
        XCTAssertTrue(run.stdout.contains(#""completed":true"#), "the small command after it still acts: \(run.stdout)")
    }
}
