import CSystem
import Foundation
import IntervalEngine
import LuaBridge
import Synchronization
import WorkoutValues

/// Standard output and error, written straight to the file descriptors (no stdio
/// buffer), so a reader of `--json` sees each event the moment it happens. A write to
/// standard output that fails (a full disk, a closed pipe, a closed terminal) is
/// remembered: nothing more is written there, `failed` says why, and `onFailure` (set
/// by a run) hears of it once, so the run can stop instead of writing into the void.
enum Output {
    /// What every writing thread shares (the main thread, `EventStream`'s queue): one
    /// value under a `Mutex`.
    private struct Shared {
        var failure: Int32?
        var onFailure: (@Sendable () -> Void)?
    }

    private static let shared = Mutex(Shared())

    /// The errno of the first failed write to standard output.
    static var failure: Int32? { shared.withLock { $0.failure } }

    /// Called once, on the writing thread, when standard output first fails.
    static var onFailure: (@Sendable () -> Void)? {
        get { shared.withLock { $0.onFailure } }
        set { shared.withLock { $0.onFailure = newValue } }
    }

    static func line(_ text: String) {
        write(text + "\n")
    }

    static func write(_ text: String) {
        write(Array(text.utf8))
    }

    static func write(_ bytes: [UInt8]) {
        guard failure == nil else { return }
        let error = send(bytes, to: STDOUT_FILENO)
        guard error != 0 else { return }
        let first = shared.withLock { shared -> (@Sendable () -> Void)?? in
            guard shared.failure == nil else { return .none }
            shared.failure = error
            return .some(shared.onFailure)
        }
        if case .some(let hear) = first { hear?() }
    }

    /// Standard error; every line of the text is escaped (`VisibleText`), since file
    /// names, `--set` values and routine text may hold what a terminal would obey.
    static func error(_ text: String) {
        let escaped = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { VisibleText.escape(String($0)) }.joined(separator: "\n")
        _ = send(Array((escaped + "\n").utf8), to: STDERR_FILENO)
    }

    /// The exit status once the command is done, given the one it chose: a command whose
    /// output could not be written did not do its job. A reader that went away (EPIPE:
    /// `workout plan | head -1`) is not an error to report, and gives 141, the status a
    /// shell shows for a writer its reader left; any other failure is said and gives 1.
    /// Standard output is closed first and the close checked, as coreutils' `close_stdout`
    /// does: a file system may report a failed write only then (NFS, a quota).
    static func finish(status: Int32) -> Int32 {
        if close(STDOUT_FILENO) != 0, errno != EBADF, errno != EINTR {
            let error = errno
            shared.withLock { if $0.failure == nil { $0.failure = error } }
        }
        guard let failure else { return status }
        if failure == EPIPE { return status == 0 ? 128 + SIGPIPE : status }
        error("workout: cannot write to standard output: \(String(cString: strerror(failure)))")
        return status == 0 ? 1 : status
    }

    /// Writes everything, or returns the errno that stopped it (0: all written).
    private static func send(_ all: [UInt8], to descriptor: Int32) -> Int32 {
        var bytes = all[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return written < 0 ? errno : EIO }
            bytes = bytes.dropFirst(written)
        }
        return 0
    }
}

/// Standard output gathered and written in blocks of 64 KB, for output no one reads
/// as it happens (`plan`, a dry run): a system call per line was half their time on a
/// 100,000-segment routine. A block may be written while a hook runs (it printed):
/// the time the reader takes to take it is not the hook's (`LuaTime.excluding`).
final class BlockOutput {
    private var block = ""

    func line(_ text: String) {
        block += text
        block += "\n"
        if block.utf8.count >= 1 << 16 { flush() }
    }

    func flush() {
        guard !block.isEmpty else { return }
        let text = block
        LuaTime.excluding { Output.write(text) }
        block = ""
    }
}

/// The event lines of a real run, for a reader that may stall (a `--json` pipe or FIFO
/// nobody reads): they are written on a thread of their own, so the timers and the hooks
/// never wait for the reader. Up to `limit` bytes wait in memory; beyond that, lines are
/// dropped (counted, and said at the end) rather than held up or piled up without bound.
///
/// A line that a pipe has room for, with none waiting before it, is written at once on
/// the caller's thread: such a write cannot block, and waking the writer thread for it
/// would cost each event a second wake-up (the benchmarks' `--json` run).
///
/// Shared by the main thread and its queue: the counts are one value under a `Mutex`, so
/// the compiler checks that it is `Sendable`.
final class EventStream: Sendable {
    /// 4 MiB: hours of events at one line a second.
    static let limit = 4 << 20

    private let queue = DispatchQueue(label: "workout.output")
    /// Bytes queued and not yet written, and the lines dropped.
    private let counts = Mutex((waiting: 0, dropped: 0))
    /// Lines dropped because `limit` bytes were waiting.
    var dropped: Int { counts.withLock { $0.dropped } }
    /// Standard output's pipe capacity; nil when it is not a pipe (a terminal or a file,
    /// which may block: always the writer thread).
    private let pipeCapacity: Int? = {
        let capacity = workout_pipe_capacity(STDOUT_FILENO)
        return capacity > 0 ? Int(capacity) : nil
    }()

    func line(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        let taken = counts.withLock { counts -> Bool? in
            if counts.waiting == 0, fitsAtOnce(bytes.count) { return nil }
            guard counts.waiting + bytes.count <= Self.limit else {
                counts.dropped += 1
                return false
            }
            counts.waiting += bytes.count
            return true
        }
        guard let taken else { return Output.write(bytes) }
        guard taken else { return }
        queue.async { [self] in
            Output.write(bytes)
            counts.withLock { $0.waiting -= bytes.count }
        }
    }

    /// Whether a write of `count` bytes to standard output's pipe goes in whole and at
    /// once: no more than PIPE_BUF (so it is not split), and the pipe less than half full
    /// after it. Half, not all: a pipe holds its bytes in page-sized slots that partial
    /// reads and small writes leave partly empty, so its byte count can show room that
    /// its slots do not have (a write then blocked, `testAStalledReaderHoldsUpNoTimerAndNoHook`).
    private func fitsAtOnce(_ count: Int) -> Bool {
        guard let pipeCapacity, count <= Int(PIPE_BUF) else { return false }
        let unread = workout_pipe_unread(STDOUT_FILENO)
        return unread >= 0 && Int(unread) + count <= pipeCapacity / 2
    }

    /// Waits until the reader has taken every line, or `giveUp()` holds (checked every
    /// tenth of a second: a signal asked the process to stop, say). True if all went.
    @discardableResult
    func drain(giveUp: () -> Bool) -> Bool {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        while done.wait(timeout: .now() + 0.1) == .timedOut {
            if giveUp() { return false }
        }
        return true
    }
}
