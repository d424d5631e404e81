import Foundation
import IntervalEngine
import PastSessions
import Platform

/// `$XDG_DATA_HOME/workout/history.jsonl`: one line per session. Each session is
/// appended with a single `write` on a descriptor opened with `O_APPEND`, then `fsync`,
/// so two workouts ending at once never interleave or lose a line (the kernel appends
/// each write whole at the end), and a line written is on disk before the run exits. A
/// write cut short (a full disk) is cut back off, so the lines before it stay whole.
/// Appends and `forget` (HistoryRemoval.swift) take the same lock.
public struct HistoryFile: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// `$XDG_DATA_HOME/workout/history.jsonl`, or `~/.local/share/workout/history.jsonl`
    /// when the variable is unset, empty or relative (as the XDG spec asks): `UserDirectories`.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        path = (UserDirectories(environment: environment).data as NSString).appendingPathComponent("workout/history.jsonl")
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// What the file holds: each entry with its line number, and the 1-based numbers of
    /// lines that are not whole entries (skipped, never fatal).
    public struct Contents: Sendable {
        public var entries: [HistoryEntry] = []
        /// The line each entry is on, in step with `entries`.
        public var lines: [Int] = []
        public var damaged: [Int] = []

        public init() {}

        public mutating func add(_ entry: HistoryEntry, line: Int) {
            entries.append(entry)
            lines.append(line)
        }
    }

    /// Creates the file's directory ahead of the first append, for the watchdog's
    /// last-resort line: its signal handler can only append to a file whose directory
    /// is there.
    public func prepareDirectory() {
        try? Self.makeDirectories((path as NSString).deletingLastPathComponent)
    }

    /// Appends one session. The line goes in one `write` under the history's lock (an
    /// exclusive `flock` on the file), so `history forget`, which replaces the file while
    /// holding the same lock, never drops a session ending at that moment: a writer that
    /// finds the file replaced while it waited appends to the new one.
    public func append(_ entry: HistoryEntry) throws(Failure) {
        try Self.makeDirectories((path as NSString).deletingLastPathComponent)
        let bytes = Array((entry.json.text + "\n").utf8)
        let descriptor = try lockedDescriptor(flags: O_WRONLY | O_APPEND | O_CREAT, lockRequired: false)
        defer { close(descriptor) }
        var written = -1
        repeat {
            written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        } while written < 0 && errno == EINTR
        guard written == bytes.count else {
            // A second write for the rest could land after another process's line. The
            // part that was written is cut off again, or the next session's line would be
            // glued to it and both be lost.
            let reason = written < 0 ? Self.errnoText() : "only \(written) of \(bytes.count) bytes written"
            if written > 0 { LastResort.cutBack(descriptor, written: written) }
            throw Failure(description: "cannot write \(path): \(reason)")
        }
        guard fsync(descriptor) == 0 else { throw Failure(description: "cannot sync \(path): \(Self.errnoText())") }
    }

    /// The history file opened and locked, checked to still be the file at `path` once the
    /// lock is ours (a `forget` may have replaced it meanwhile). Closing it unlocks it. An
    /// append goes ahead unlocked where the file system has no locks (`lockRequired`).
    func lockedDescriptor(flags: Int32, lockRequired: Bool) throws(Failure) -> Int32 {
        for _ in 0..<1_000 {
            let descriptor = open(path, flags | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw Failure(description: "cannot open \(path): \(Self.errnoText())") }
            var result: Int32
            repeat { result = flock(descriptor, LOCK_EX) } while result != 0 && errno == EINTR
            if result != 0 {
                if !lockRequired { return descriptor }
                let reason = Self.errnoText()
                close(descriptor)
                throw Failure(description: "cannot lock \(path): \(reason)")
            }
            var opened = stat()
            var named = stat()
            if fstat(descriptor, &opened) == 0, stat(path, &named) == 0,
               opened.st_dev == named.st_dev, opened.st_ino == named.st_ino {
                return descriptor
            }
            close(descriptor)
        }
        throw Failure(description: "cannot lock \(path): it keeps being replaced")
    }

    /// What the file holds, entries in file order. A missing file is an empty history.
    public func read() throws(Failure) -> Contents {
        var contents = Contents()
        try forEachEntry { contents.add($0, line: $1) } damaged: { contents.damaged.append($0) }
        return contents
    }

    /// Streams the file: each entry, with its line number, in file order to `entry`, and
    /// each damaged line's number to `damaged`. Memory stays at a block and a line however
    /// long the history (`workout history` over 500,000 sessions). A missing file is an
    /// empty history.
    public func forEachEntry(_ entry: (HistoryEntry, Int) -> Void, damaged: (Int) -> Void) throws(Failure) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return }
            throw Failure(description: "cannot read \(path): \(Self.errnoText())")
        }
        defer { close(descriptor) }
        var lines = HistoryLines()
        try Self.readBlocks(descriptor, path: path) { lines.feed($0, entry, damaged) }
        lines.finish(entry, damaged)
    }

    /// Reads `descriptor` to its end in blocks of 64 KiB, each handed to `body`.
    static func readBlocks(_ descriptor: Int32, path: String,
                           _ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(Failure) {
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = block.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw Failure(description: "cannot read \(path): \(errnoText())") }
            guard count > 0 else { return }
            block.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[..<count])) }
        }
    }

    /// Reads bytes already in memory into lines (`\n`), as `forEachEntry` reads the file;
    /// blank lines are neither entries nor damage.
    static func contents(of data: Data) -> Contents {
        var contents = Contents()
        var lines = HistoryLines()
        let entry = { (entry: HistoryEntry, line: Int) in contents.add(entry, line: line) }
        let damaged = { (line: Int) in contents.damaged.append(line) }
        data.withUnsafeBytes { raw in lines.feed(raw.bindMemory(to: UInt8.self), entry, damaged) }
        lines.finish(entry, damaged)
        return contents
    }

    public static func errnoText() -> String { String(cString: strerror(errno)) }

    /// `mkdir -p`, with the system's reason when it fails (Foundation's error on Linux
    /// says only "The operation could not be completed").
    public static func makeDirectories(_ directory: String) throws(Failure) {
        do {
            try SavedFile.makeFolder(directory)
        } catch {
            throw Failure(description: "cannot create \(error.path): \(error.reason)")
        }
    }
}

/// The history's bytes cut into lines as they come, block by block, each read as an entry
/// or a damaged line. A line longer than `longest` is damage and is not held whole.
struct HistoryLines {
    /// A real line is a few hundred bytes.
    static let longest = 64 * 1024

    private var line: [UInt8] = []
    private var number = 0
    private var tooLong = false

    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ entry: (HistoryEntry, Int) -> Void,
                       _ damaged: (Int) -> Void) {
        var start = 0
        while start < bytes.count {
            guard let newline = bytes[start...].firstIndex(of: 0x0A) else {
                if !tooLong { line += bytes[start...] }
                if line.count > Self.longest {
                    tooLong = true
                    line = []
                }
                return
            }
            if line.isEmpty && !tooLong {
                read(UnsafeBufferPointer(rebasing: bytes[start..<newline]), entry, damaged)
            } else {
                if !tooLong { line += bytes[start..<newline] }
                end(entry, damaged)
            }
            start = newline + 1
        }
    }

    /// The last line, when the file does not end with a newline.
    mutating func finish(_ entry: (HistoryEntry, Int) -> Void, _ damaged: (Int) -> Void) {
        if !line.isEmpty || tooLong { end(entry, damaged) }
    }

    private mutating func end(_ entry: (HistoryEntry, Int) -> Void, _ damaged: (Int) -> Void) {
        if tooLong {
            number += 1
            damaged(number)
        } else {
            line.withUnsafeBufferPointer { read($0, entry, damaged) }
        }
        line.removeAll(keepingCapacity: true)
        tooLong = false
    }

    private mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, _ entry: (HistoryEntry, Int) -> Void,
                               _ damaged: (Int) -> Void) {
        number += 1
        guard !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) else { return }
        if let read = HistoryEntry(line: bytes) {
            entry(read, number)
        } else {
            damaged(number)
        }
    }
}
