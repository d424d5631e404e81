import CSystem
import Foundation
import Synchronization

/// Runs a program to completion, off the main thread: an argument vector (no shell), a
/// few bytes of input or none, standard error discarded, standard output captured. It is
/// started with `posix_spawn` and a clean slate — no blocked signals and every signal at
/// its default action (a Dispatch thread blocks nearly all, and `posix_spawn` would hand
/// that mask on, so only `kill -9` could stop a hung synthesizer), and none of workout's
/// descriptors. It is always reaped; one that outlives `timeout` is killed, and every
/// one still running when the workout ends is killed too (`stopAll`), so nothing is
/// left behind.
public enum ChildProcess {
    /// How a child ended, with what it printed: text (`run`) or bytes (`capture`).
    public enum Exit<Output: Equatable & Sendable>: Equatable, Sendable {
        case exited(Int32, output: Output)
        case timedOut
        case failedToStart
    }

    public typealias TextExit = Exit<String>

    /// At most this much of a child's text output is kept (notify-send prints an id).
    static let outputLimit = 64 * 1024

    /// What a child may be given on standard input: what a pipe holds, so it is written
    /// whole before the child starts and nothing waits on a child that does not read.
    public static let inputLimit = 4096

    /// Runs the program and keeps its output as text, up to `outputLimit`. `input` (at
    /// most `inputLimit` bytes; more is cut) is its standard input.
    public static func run(_ path: String, _ arguments: [String], input: [UInt8] = [], timeout: Double) -> TextExit {
        switch capture(path, arguments, input: input, timeout: timeout, limit: outputLimit) {
        case let .exited(status, bytes): .exited(status, output: String(decoding: bytes, as: UTF8.self))
        case .timedOut: .timedOut
        case .failedToStart: .failedToStart
        }
    }

    /// Runs the program and keeps its output as bytes, up to `limit` (a rendered WAV is
    /// far bigger than the text a program prints); what comes beyond is read and dropped,
    /// so the child never blocks on a full pipe.
    public static func capture(_ path: String, _ arguments: [String], input bytes: [UInt8] = [], timeout: Double,
                               limit: Int) -> Exit<[UInt8]> {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return .failedToStart }
        let (output, input) = (ends[0], ends[1])
        // Not for this child (it closes all but 0-2), for any other program started meanwhile.
        _ = fcntl(output, F_SETFD, FD_CLOEXEC)
        _ = fcntl(input, F_SETFD, FD_CLOEXEC)
        defer { close(output) }
        var given: Int32 = -1
        if !bytes.isEmpty {
            guard let reading = filledPipe(bytes) else {
                close(input)
                return .failedToStart
            }
            given = reading
        }
        defer { if given >= 0 { close(given) } }
        guard let pid = spawn(path, arguments, input: given, output: input) else {
            close(input)
            return .failedToStart
        }
        close(input)
        LiveChildren.add(pid)
        defer { LiveChildren.remove(pid) }
        let deadline = MonotonicClock.now() &+ nanoseconds(timeout)
        var captured: [UInt8] = []
        guard let status = wait(for: pid, reading: output, into: &captured, limit: limit, until: deadline) else {
            kill(pid, SIGKILL)
            reap(pid)
            return .timedOut
        }
        return .exited(status, output: captured)
    }

    /// Kills every child still running (the workout is over; a synthesizer mid-word or a
    /// hung notify-send must not outlive it). The threads waiting for them reap them.
    public static func stopAll() {
        LiveChildren.killAll()
    }

    /// The same from a signal handler (the crash guard, the watchdog): async-signal-safe.
    public static func stopAllFromSignalHandler() {
        LiveChildren.killFromHandler()
    }

    /// Ready for `stopAllFromSignalHandler` before any handler is installed.
    public static func prepare() {
        LiveChildren.prepare()
    }

    /// A pipe holding `bytes` (cut to `inputLimit`) and then its end: the reading end.
    private static func filledPipe(_ bytes: [UInt8]) -> Int32? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        defer { close(ends[1]) }
        var written = 0
        let count = min(bytes.count, inputLimit)
        while written < count {
            let result = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress! + written, count - written) }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else {
                close(ends[0])
                return nil
            }
            written += result
        }
        return ends[0]
    }

    /// `input`: the reading end of a pipe for standard input, or -1 for /dev/null.
    private static func spawn(_ path: String, _ arguments: [String], input: Int32, output: Int32) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input >= 0 {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, path, &actions, &attributes, argv, environ) == 0 else { return nil }
        return pid
    }

    /// Reads the child's output until it exits or `deadline` (CLOCK_MONOTONIC ns) passes;
    /// its exit status, or nil on the deadline. One `poll` on the output and a pidfd.
    private static func wait(for pid: pid_t, reading output: Int32, into captured: inout [UInt8], limit: Int,
                             until deadline: UInt64) -> Int32? {
        let exitWatch = workout_pidfd_open(pid)
        defer { if exitWatch >= 0 { close(exitWatch) } }
        var outputOpen = true
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let status = exitStatus(pid) {
                // Whatever it wrote before it ended (a grandchild may hold the pipe open).
                drain(output, into: &captured, limit: limit)
                return status
            }
            let now = MonotonicClock.now()
            guard now < deadline else { return nil }
            // Without a pidfd (an old kernel), look again every 10 ms.
            let wait = min(deadline - now, exitWatch >= 0 ? UInt64(Int32.max) * 1_000_000 : 10_000_000)
            var watched = [pollfd(fd: outputOpen ? output : -1, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: exitWatch, events: Int16(POLLIN), revents: 0)]
            _ = poll(&watched, 2, Int32(clamping: (wait + 999_999) / 1_000_000))
            if outputOpen && watched[0].revents != 0 {
                let count = read(output, &buffer, buffer.count)
                if count > 0 {
                    if captured.count < limit { captured += buffer[..<min(count, limit - captured.count)] }
                } else if count == 0 || errno != EINTR {
                    outputOpen = false
                }
            }
        }
    }

    /// The exit status if the child has ended (and is now reaped), else nil.
    private static func exitStatus(_ pid: pid_t) -> Int32? {
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, WNOHANG) } while result < 0 && errno == EINTR
        guard result == pid else { return result < 0 ? -1 : nil }
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    private static func reap(_ pid: pid_t) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    private static func drain(_ output: Int32, into captured: inout [UInt8], limit: Int) {
        _ = fcntl(output, F_SETFL, O_NONBLOCK)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while captured.count < limit {
            let count = read(output, &buffer, buffer.count)
            guard count > 0 else { return }
            captured += buffer[..<min(count, limit - captured.count)]
        }
    }
}

/// The children running now, in a fixed table that a signal handler may read too (the
/// watchdog kills them before it ends the process). Each slot is an `Atomic` (lock-free,
/// so the handler may read it; no lock to take), so the compiler checks the sharing.
package enum LiveChildren {
    static let slots = 16
    private static let table = InlineArray<16, Atomic<pid_t>> { _ in Atomic(0) }

    /// Takes the first free slot; a seventeenth child at once goes unlisted.
    static func add(_ pid: pid_t) {
        for slot in 0..<slots {
            if table[slot].compareExchange(expected: 0, desired: pid, ordering: .sequentiallyConsistent).exchanged { return }
        }
    }

    static func remove(_ pid: pid_t) {
        for slot in 0..<slots {
            if table[slot].compareExchange(expected: pid, desired: 0, ordering: .sequentiallyConsistent).exchanged { return }
        }
    }

    static func killAll() {
        killFromHandler()
    }

    /// Async-signal-safe: reads the table, calls `kill`.
    package static func killFromHandler() {
        for slot in 0..<slots {
            let pid = table[slot].load(ordering: .sequentiallyConsistent)
            if pid > 0 { kill(pid, SIGKILL) }
        }
    }

    /// Makes the table before any handler may read it.
    package static func prepare() {
        _ = table[0].load(ordering: .sequentiallyConsistent)
    }

    /// How many children run now (tests).
    static var count: Int { (0..<slots).filter { table[$0].load(ordering: .sequentiallyConsistent) != 0 }.count }
}
