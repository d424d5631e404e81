import Foundation
import Synchronization
import XCTest

/// A real sound server of the test's own, PulseAudio or PipeWire, with only a null sink:
///
/// - `.pulseaudio`: `pulseaudio -n` with the null sink and the native protocol on a socket
///   in a scratch directory (its own XDG_RUNTIME_DIR and HOME).
/// - `.pipewire`: what most desktops run — `pipewire`, `wireplumber` and `pipewire-pulse`
///   on a private session bus (`dbus-daemon`) in the same kind of scratch directory, the
///   null sink loaded through pipewire-pulse as a desktop's `pactl` would.
///
/// Either way a silent `pacat` keeps the sink's clock running, and `parec` records what
/// the sink plays from `null.monitor`. `make test` installs both servers and their
/// utilities; without them the test fails, never skips.
final class PrivateSoundServer {
    enum Kind: String { case pulseaudio, pipewire }

    let kind: Kind
    let directory: URL
    private var daemons: [Daemon] = []
    private var silence: Daemon?
    /// `PULSE_SERVER` for the programs under test.
    var address: String { "unix:" + socket }
    private var socket: String {
        kind == .pulseaudio ? directory.appendingPathComponent("native").path
                            : directory.appendingPathComponent("run/pulse/native").path
    }
    /// What they need besides, so nothing touches the user's own server, bus or home.
    var environment: [String: String] {
        var environment = ["PULSE_SERVER": address, "HOME": directory.appendingPathComponent("home").path,
                           "XDG_RUNTIME_DIR": directory.appendingPathComponent("run").path]
        if kind == .pipewire { environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=" + busSocket }
        return environment
    }
    private var busSocket: String { directory.appendingPathComponent("run/bus").path }
    static let rate = 48_000

    /// `quantum`: PipeWire's graph runs in cycles of this many frames, as a desktop's does
    /// (its default is 1024; the lab's null sink alone would run in far smaller ones).
    init(_ kind: Kind = .pulseaudio, quantum: Int? = nil) throws {
        self.kind = kind
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("workout-\(kind)-\(UUID().uuidString.prefix(8))")
        for folder in ["run", "home"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(folder),
                                                    withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        switch kind {
        case .pulseaudio: try startPulseAudio()
        case .pipewire: try startPipeWire(quantum: quantum)
        }
        silence = try Daemon(Self.program("pacat"), ["--raw", "--format=s16le", "--rate=\(Self.rate)", "--channels=1",
                                                     "--latency-msec=20"], environment: environment, input: "/dev/zero")
        try settle()
    }

    private func startPulseAudio() throws {
        let script = directory.appendingPathComponent("server.pa")
        try """
            load-module module-null-sink sink_name=null rate=\(Self.rate)
            load-module module-native-protocol-unix socket=\(socket) auth-anonymous=1
            set-default-sink null

            """.write(to: script, atomically: false, encoding: .utf8)
        let server = try start("pulseaudio", ["-n", "-F", script.path, "--daemonize=no", "--exit-idle-time=-1",
                                              "--use-pid-file=no", "--log-target=stderr"])
        try awaitFile(socket, from: server)
    }

    /// The session bus first (wireplumber and pipewire-pulse look for one), then the three
    /// daemons; ready once pipewire-pulse answers `pactl info` as PipeWire and has loaded
    /// the null sink and made it the default.
    private func startPipeWire(quantum: Int?) throws {
        let bus = try start("dbus-daemon", ["--session", "--address=unix:path=\(busSocket)", "--nofork", "--nopidfile"])
        try awaitFile(busSocket, from: bus)
        let pipewire = try start("pipewire", [])
        try awaitFile(directory.appendingPathComponent("run/pipewire-0").path, from: pipewire)
        _ = try start("wireplumber", [])
        let pulse = try start("pipewire-pulse", [])
        try awaitFile(socket, from: pulse)
        let answered = try eventually(every: 0.05) { try pactl(["info"]).contains("on PipeWire") }
        guard answered else { throw Failure("pipewire-pulse did not answer pactl info:\n\(logs())") }
        _ = try pactl(["load-module", "module-null-sink", "sink_name=null", "rate=\(Self.rate)"])
        _ = try pactl(["set-default-sink", "null"])
        let ready = try eventually(every: 0.05) { try pactl(["get-default-sink"]).hasPrefix("null") }
        guard ready else { throw Failure("pipewire-pulse did not make the null sink the default:\n\(logs())") }
        if let quantum {
            let forced = try spawn(Self.program("pw-metadata"), ["-n", "settings", "0", "clock.force-quantum", "\(quantum)"],
                                   environment: environment)
            guard forced.status == 0 else { throw Failure("pw-metadata could not set the quantum: \(forced.output)") }
        }
    }

    /// Starts one of the server's programs, its errors in a log of its own.
    private func start(_ name: String, _ arguments: [String]) throws -> Daemon {
        let daemon = try Daemon(Self.program(name), arguments, environment: environment,
                                log: directory.appendingPathComponent("\(name).log").path)
        daemons.append(daemon)
        return daemon
    }

    private func awaitFile(_ path: String, from daemon: Daemon) throws {
        let opened = eventually(every: 0.02) { FileManager.default.fileExists(atPath: path) || !daemon.isRunning }
        guard opened, FileManager.default.fileExists(atPath: path) else {
            throw Failure("\(kind) did not open \(path):\n\(logs())")
        }
    }

    private func logs() -> String {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".log") }.sorted().map { name in
            let text = (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? ""
            return "\(name):\n\(text.suffix(1500))"
        }.joined(separator: "\n")
    }

    /// `pactl` against this server; its standard output.
    func pactl(_ arguments: [String]) throws -> String {
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        return try spawn(Self.program("pactl"), arguments, environment: env).output
    }

    /// A new null sink renders two seconds ahead until a stream asks for less, and then
    /// plays out what it rendered: wait until its latency is the silent stream's.
    private func settle() throws {
        var latency = Int.max
        let settled = try eventually(every: 0.1) {
            let sinks = try pactl(["list", "sinks"])
            // "Latency: 9990 usec, configured 10000 usec"
            latency = sinks.split(separator: "\n").compactMap { line -> Int? in
                guard let range = line.range(of: "Latency: ") else { return nil }
                return Int(line[range.upperBound...].prefix { $0.isNumber })
            }.first ?? Int.max
            return latency <= 50_000
        }
        guard settled else { throw Failure("the null sink's latency stayed at \(latency) µs") }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Kills the server, as a crash or a logout would.
    func stop() {
        silence?.kill()
        for daemon in daemons.reversed() { daemon.kill() }
    }

    /// Records the sink's output while `body` runs, and `after` seconds more. It starts
    /// `body` once the recorder's first bytes have come (the recording is running), and
    /// stops once the recording holds `after` seconds of samples past `body`'s end: both
    /// counted in the recorder's own samples, not in time slept.
    func record<T>(after: Double = 1.5, _ body: () throws -> T) throws -> (T, Recording) {
        let recorder = try Daemon(Self.program("parec"), ["-d", "null.monitor", "--raw", "--format=s16le",
                                                          "--rate=\(Self.rate)", "--channels=1", "--latency-msec=10"],
                                  environment: environment, capture: true)
        guard eventually(every: 0.005, { !recorder.captured.isEmpty }) else {
            throw Failure("parec recorded nothing from null.monitor")
        }
        let result = try body()
        let wanted = recorder.captured.count + Int(after * Double(Self.rate)) * 2
        guard eventually(timeout: after + 10, every: 0.02, { recorder.captured.count >= wanted }) else {
            throw Failure("parec stopped recording")
        }
        recorder.kill()
        return (result, Recording(recorder.captured, arrivals: recorder.arrivals))
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ text: String) { description = text }
    }

    private static func program(_ name: String) throws -> String {
        guard let path = ["/usr/bin", "/bin", "/usr/local/bin"].map({ "\($0)/\(name)" })
            .first(where: FileManager.default.isExecutableFile) else {
            throw Failure("\(name) is not installed (make test installs pulseaudio, pulseaudio-utils, pipewire, wireplumber, pipewire-pulse and dbus-daemon)")
        }
        return path
    }
}

/// A program that runs until killed, started with posix_spawn and reaped with waitpid:
/// Foundation's Process learns of an exit when a socket shared with the child closes,
/// and pulseaudio closes every descriptor it inherits, which leaves Process waiting on
/// it and, after it, on every other child (see `spawn`). Its output, when captured, is
/// read on a thread of its own until it ends.
final class Daemon: @unchecked Sendable {
    let pid: pid_t
    private var reaped = false
    private let lock = NSLock()
    private var bytes = Data()
    /// When each read of the output came (seconds of CLOCK_MONOTONIC), and how many bytes
    /// had come by its end.
    private var arrivalLog: [(at: Double, bytes: Int)] = []
    private var reader: Thread?
    private let done = DispatchSemaphore(value: 0)

    init(_ path: String, _ arguments: [String], environment: [String: String], input: String = "/dev/null",
         capture: Bool = false, log: String? = nil) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var ends: [Int32] = [-1, -1]
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        if capture {
            guard pipe(&ends) == 0 else { throw PrivateSoundServer.Failure("no pipe") }
            posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
            posix_spawn_file_actions_addclose(&actions, ends[0])
            posix_spawn_file_actions_addclose(&actions, ends[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, log ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard let pid = spawnMerged(path, arguments, environment: environment, actions: &actions) else {
            throw PrivateSoundServer.Failure("could not start \(path)")
        }
        self.pid = pid
        Daemon.running.withLock { _ = $0.insert(pid) }
        Daemon.killAtExit()
        guard capture else { return }
        close(ends[1])
        let descriptor = ends[0]
        let reader = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                var now = timespec()
                clock_gettime(CLOCK_MONOTONIC, &now)
                lock.withLock {
                    bytes.append(contentsOf: buffer[..<count])
                    arrivalLog.append((Double(now.tv_sec) + Double(now.tv_nsec) / 1e9, bytes.count))
                }
            }
            close(descriptor)
            done.signal()
        }
        self.reader = reader
        reader.start()
    }

    var isRunning: Bool {
        lock.withLock {
            guard !reaped else { return false }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { reaped = true }
            return !reaped
        }
    }

    /// Kills it (SIGKILL), reaps it and, for a captured one, waits for its output to end.
    func kill() {
        let alive = lock.withLock { !reaped }
        guard alive else { return }
        Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        lock.withLock { reaped = true }
        Daemon.running.withLock { _ = $0.remove(pid) }
        if reader != nil { _ = done.wait(timeout: .now() + 5) }
    }

    deinit { kill() }

    /// Every daemon not yet killed: a test that fails, or a test process that ends while
    /// XCTest still holds the test cases (and so their servers), leaves none running.
    private static let running = Mutex<Set<pid_t>>([])
    private static let exitHandler: Void = {
        atexit {
            for pid in Daemon.running.withLock({ $0 }) {
                Glibc.kill(pid, SIGKILL)
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            }
        }
    }()

    private static func killAtExit() { _ = exitHandler }

    var captured: Data { lock.withLock { bytes } }
    var arrivals: [(at: Double, bytes: Int)] { lock.withLock { arrivalLog } }
}

/// What the sink played: 16-bit mono samples, and the sounds found in them.
struct Recording {
    let samples: [Int16]
    let rate = PrivateSoundServer.rate
    /// When each chunk of it reached the test (seconds of CLOCK_MONOTONIC), and how many
    /// samples had come by its end.
    let arrivals: [(at: Double, samples: Int)]

    init(_ data: Data, arrivals: [(at: Double, bytes: Int)] = []) {
        let bytes = [UInt8](data)
        samples = stride(from: 0, to: bytes.count - 1, by: 2).map {
            Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
        }
        self.arrivals = arrivals.map { ($0.at, $0.bytes / 2) }
    }

    /// The recording's own clock: the monotonic moment (seconds) at which the sample at
    /// `seconds` into the recording was captured, and how far its samples run from `rate`
    /// a second of the monotonic clock (parts per million; positive: more samples).
    ///
    /// Each chunk `parec` hands over arrives after it was captured, so arrival less
    /// samples/rate lies above the true origin by the reader's delay; its lowest value in
    /// each second of the recording is within a fraction of a millisecond of it, and the
    /// least-squares line through those lowest values is the clock (as the benchmarks'
    /// `Recorder.clock`). Counting samples alone is not: a null sink's monitor hands out a
    /// few hundred samples per million more or fewer than the monotonic clock's seconds,
    /// and PipeWire's graph may run off it by more.
    func clock() -> (moment: (Double) -> Double, ppm: Double) {
        var lowest: [Int: (samples: Double, origin: Double)] = [:]
        for (at, count) in arrivals {
            let second = count / rate, origin = at - Double(count) / Double(rate)
            if lowest[second].map({ origin < $0.origin }) ?? true { lowest[second] = (Double(count), origin) }
        }
        // The first and last seconds are partial.
        let points = lowest.sorted { $0.key < $1.key }.dropFirst().dropLast().map(\.value)
        guard points.count >= 3 else {
            let start = arrivals.map { $0.at - Double($0.samples) / Double(rate) }.min() ?? 0
            return ({ start + $0 }, 0)
        }
        let count = Double(points.count)
        let meanSamples = points.map(\.samples).reduce(0, +) / count
        let meanOrigin = points.map(\.origin).reduce(0, +) / count
        let slope = points.map { ($0.samples - meanSamples) * ($0.origin - meanOrigin) }.reduce(0, +)
            / max(1e-9, points.map { ($0.samples - meanSamples) * ($0.samples - meanSamples) }.reduce(0, +))
        let intercept = meanOrigin - slope * meanSamples
        let perSecond = Double(rate)
        return ({ intercept + $0 * perSecond * (1 / perSecond + slope) }, -slope * perSecond * 1e6)
    }

    struct Onset {
        /// Seconds from the start of the recording.
        var seconds: Double
        /// The pitch of its first 40 ms.
        var hz: Double
    }

    /// A sound starts where the signal rises above `threshold` after at least `gap`
    /// seconds of silence (the notes of one sound are closer together than that).
    func onsets(threshold: Int16 = 1_000, gap: Double = 0.06) -> [Onset] {
        var onsets: [Onset] = []
        var lastLoud = -Int.max / 2
        let gapSamples = Int(gap * Double(rate))
        for (index, sample) in samples.enumerated() where abs(Int(sample)) > Int(threshold) {
            if index - lastLoud > gapSamples {
                onsets.append(Onset(seconds: Double(index) / Double(rate), hz: pitch(from: index + rate / 200)))
            }
            lastLoud = index
        }
        return onsets
    }

    /// Zero crossings over 40 ms, halved, per second.
    func pitch(from start: Int) -> Double {
        let end = min(samples.count, start + rate / 25)
        guard end > start + 1 else { return 0 }
        var crossings = 0
        for index in (start + 1)..<end where (samples[index - 1] < 0) != (samples[index] < 0) {
            crossings += 1
        }
        return Double(crossings) / 2 / (Double(end - start) / Double(rate))
    }

    var loudest: Int { samples.map { abs(Int($0)) }.max() ?? 0 }
}
