import Foundation
import SoundPlayer
import XCTest
@testable import IntervalEngine
@testable import Platform

/// notify-send and speech are children of the timer, under control: at most one of each
/// at a time, the rest waiting in a bounded queue; started with a clean signal mask; killed
/// on timeout and when the workout ends; reaped, so none is left behind.
final class ProcessHygieneTests: XCTestCase {
    var binary: String { WorkoutBinary.binary }
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("workout-hygiene-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A fake program on the test's PATH: logs `$$ $*` as one line to `name.log`, then
    /// runs `then` (shell code).
    func fake(_ name: String, then: String = "") throws {
        let script = directory.appendingPathComponent(name)
        try "#!/bin/sh\necho \"$$ $*\" >> \"$0.log\"\n\(then)\n".write(to: script, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
    }

    func log(_ name: String) -> [String] {
        ((try? String(contentsOf: directory.appendingPathComponent(name + ".log"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    /// The pids the fake logged, still alive (not merely a zombie).
    func alive(_ name: String) -> [pid_t] {
        log(name).compactMap { pid_t($0.prefix { $0 != " " }) }.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            return !stat[stat.index(after: close)...].hasPrefix(" Z")
        }
    }

    /// Starts the binary with the fakes first on PATH; stdout and stderr discarded.
    func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = directory.path + ":/usr/bin:/bin"
        environment["XDG_DATA_HOME"] = directory.path
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Polls `condition` until it holds or `timeout` passes; meanwhile records the most
    /// children of `process` running at one moment.
    func watch(_ process: Process, timeout: Double, until condition: () -> Bool) -> Int {
        var most = 0
        eventually(timeout: timeout) {
            most = max(most, childProcesses(of: process.processIdentifier).count)
            return condition()
        }
        return most
    }

    func testAThousandSegmentsLeaveNoZombies() throws {
        try fake("notify-send", then: "echo 7")
        try fake("spd-say")
        let process = try start(["run", fixtures.appendingPathComponent("many.lua").path, "--speed", "500",
                                 "--notify", "--voice", "--no-bell"])
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        // Each segment start asks for a notification and a name spoken; those that come
        // while one runs wait, the latest only (or the latest two texts).
        let most = watch(process, timeout: 60) {
            log("notify-send").last?.contains("Hold") == true && log("spd-say").last?.hasSuffix(" Hold") == true
        }
        XCTAssertTrue(log("notify-send").last?.contains("Hold") == true, "the hold was notified")
        XCTAssertTrue(log("spd-say").last?.hasSuffix(" Hold") == true, "and said")
        XCTAssertLessThanOrEqual(log("notify-send").count, 1001)
        XCTAssertLessThanOrEqual(log("spd-say").count, 1001)
        XCTAssertLessThanOrEqual(most, 2, "one notify-send and one synthesizer at most")
        XCTAssertTrue(process.isRunning, "still in the hold")
        // Nor may a spawn leave a descriptor behind (each pipe was once left open).
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/fd"))?.count ?? 0
        XCTAssertLessThan(descriptors, 100, "open descriptors after 2,002 spawns")
        // A child that has just exited is a zombie for a moment; none may stay one.
        var left: [pid_t] = []
        eventually(timeout: 2, every: 0.1) {
            left = childProcesses(of: process.processIdentifier)
            return left.isEmpty
        }
        XCTAssertEqual(left, [], "children left behind")
    }

    /// 16 `say()` calls at once (all one call of a hook may say) with a slow synthesizer:
    /// one synthesizer at a time, the newest texts spoken, the rest dropped; none left when
    /// the workout ends.
    func testAFloodOfSpeechStartsOneSynthesizerAtATime() throws {
        try fake("spd-say", then: "sleep 0.3")
        let routine = directory.appendingPathComponent("flood.lua")
        try """
            return workout { name = "Flood", countdown = 0, work(2, "Go"),
              on_start = function() for i = 1, 16 do say("word " .. i) end end }
            """.write(to: routine, atomically: false, encoding: .utf8)
        let process = try start(["run", routine.path, "--voice", "--no-bell", "--no-notify"])
        let most = watch(process, timeout: 30) { !process.isRunning }
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertLessThanOrEqual(most, 1, "one synthesizer at a time")
        let said = log("spd-say").map { String($0.drop { $0 != " " }.dropFirst()) }
        XCTAssertTrue(said.first?.hasPrefix("word ") == true, "\(said)")
        XCTAssertTrue(said.contains("word 16"), "the newest text is kept: \(said)")
        XCTAssertLessThan(said.count, 8, "\(said)")
        XCTAssertEqual(alive("spd-say"), [], "none left running")
    }

    /// Synthesizers and notifiers that hang, ignoring SIGTERM, are killed when the
    /// workout ends: nothing of the workout runs on.
    func testNothingIsLeftRunningAfterTheWorkout() throws {
        try fake("spd-say", then: "trap '' TERM INT HUP\nexec sleep 60")
        try fake("notify-send", then: "trap '' TERM INT HUP\nexec sleep 60")
        let routine = directory.appendingPathComponent("short.lua")
        try #"return workout { name = "Short", countdown = 0, work(1, "Go") }"#
            .write(to: routine, atomically: false, encoding: .utf8)
        let process = try start(["run", routine.path, "--voice", "--notify", "--no-bell"])
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(log("spd-say").count, 1)
        XCTAssertEqual(log("notify-send").count, 1)
        var left: [pid_t] = []
        eventually(timeout: 2, every: 0.1) {
            left = alive("spd-say") + alive("notify-send")
            return left.isEmpty
        }
        XCTAssertEqual(left, [], "children left running")
    }

    /// A synthesizer that hangs (ignoring SIGTERM) is killed on its timeout, and speech
    /// is off with one warning.
    func testAHungSynthesizerIsKilledOnItsTimeout() throws {
        try fake("spd-say", then: "trap '' TERM INT HUP\nexec sleep 60")
        let warnings = AlertTests.Warnings()
        let alerts = SystemAlerts(switches: AlertSwitches(bell: false, voice: true), environment: ["PATH": directory.path],
                                  speechTimeout: 0.3) { warnings.add($0) }
        alerts.say("hello")
        eventually(timeout: 10) { !warnings.all.isEmpty }
        XCTAssertEqual(warnings.all, ["\(directory.path)/spd-say did not finish within 0.3 s; speech is off"])
        XCTAssertEqual(log("spd-say").count, 1)
        XCTAssertEqual(alive("spd-say"), [], "killed and reaped")
        XCTAssertEqual(LiveChildren.count, 0)
    }

    /// A child gets an empty signal mask and no ignored signals, whatever its parent's
    /// thread blocks (a Dispatch thread blocks nearly all) or ignores (workout ignores
    /// SIGPIPE): `kill` and Ctrl-C work on it. glibc's own two signals (32, 33) are
    /// ignored in any child posix_spawn makes, and no program can use them.
    func testChildrenStartWithACleanSignalMask() throws {
        let result = DispatchQueue.global().sync { () -> ChildProcess.TextExit in
            var blocked = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGTERM)
            sigaddset(&blocked, SIGUSR2)
            var before = sigset_t()
            pthread_sigmask(SIG_BLOCK, &blocked, &before)
            let ignored = signal(SIGUSR1, SIG_IGN)
            defer {
                signal(SIGUSR1, ignored)
                pthread_sigmask(SIG_SETMASK, &before, nil)
            }
            return ChildProcess.run("/bin/grep", ["-E", "^Sig(Blk|Ign)", "/proc/self/status"], timeout: 5)
        }
        guard case let .exited(0, output) = result else { return XCTFail("\(result)") }
        let masks = Dictionary(uniqueKeysWithValues: output.split(separator: "\n").map {
            ($0.prefix { $0 != ":" }, UInt64($0.split(separator: "\t").last ?? "", radix: 16) ?? .max)
        })
        XCTAssertEqual(masks["SigBlk"], 0, output)
        XCTAssertEqual((masks["SigIgn"] ?? .max) & ~UInt64(0x1_8000_0000), 0, output)
    }

    /// Nothing of workout's own leaks into a child: only 0, 1 and 2 are open.
    func testChildrenGetNoOtherDescriptors() throws {
        let kept = open("/dev/null", O_RDONLY)
        defer { close(kept) }
        let result = ChildProcess.run("/bin/sh", ["-c", "ls /proc/$$/fd"], timeout: 5)
        guard case let .exited(0, output) = result else { return XCTFail("\(result)") }
        // The shell's own listing of its directory may add one descriptor of its own.
        let descriptors = output.split(separator: "\n").compactMap { Int($0) }.filter { $0 < 3 || $0 == Int(kept) }
        XCTAssertEqual(descriptors, [0, 1, 2])
    }
}
