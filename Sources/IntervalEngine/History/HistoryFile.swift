import Foundation

/// `$XDG_DATA_HOME/workout/history.jsonl`: one line per session. Each session is
/// appended with a single `write` on a descriptor opened with `O_APPEND`, then `fsync`,
/// so two workouts ending at once never interleave or lose a line (the kernel appends
/// each write whole at the end), and a line written is on disk before the run exits.
/// Appends and `forget` (HistoryRemoval.swift) take the same lock.
public struct HistoryFile: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// `$XDG_DATA_HOME/workout/history.jsonl`, or `~/.local/share/workout/history.jsonl`
    /// when the variable is unset, empty or relative (as the XDG spec asks).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let base: String
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            base = data
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            base = (home as NSString).appendingPathComponent(".local/share")
        }
        path = (base as NSString).appendingPathComponent("workout/history.jsonl")
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// What the file holds: each entry with its line number, and the 1-based numbers of
    /// lines that are not whole entries (skipped, never fatal).
    public struct Contents: Sendable {
        public var entries: [HistoryEntry] = []
        /// The line each entry is on, in step with `entries`.
        public var lines: [Int] = []
        public var damaged: [Int] = []
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
            // A second write for the rest could land after another process's line.
            throw Failure(description: written < 0 ? "cannot write \(path): \(Self.errnoText())"
                                                   : "cannot write \(path): only \(written) of \(bytes.count) bytes written")
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
        guard FileManager.default.fileExists(atPath: path) else { return Contents() }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "cannot read \(path)")
        }
        return Self.contents(of: data)
    }

    /// Splits the file's bytes into lines (`\n`) and reads each; blank lines are neither
    /// entries nor damage.
    static func contents(of data: Data) -> Contents {
        var contents = Contents()
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var start = 0
            var number = 0
            while start <= bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != 0x0A { end += 1 }
                number += 1
                let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
                    if let entry = HistoryEntry(line: line) {
                        contents.entries.append(entry)
                        contents.lines.append(number)
                    } else {
                        contents.damaged.append(number)
                    }
                }
                start = end + 1
            }
        }
        return contents
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }

    /// `mkdir -p`, with the system's reason when it fails (Foundation's error on Linux
    /// says only "The operation could not be completed").
    static func makeDirectories(_ directory: String) throws(Failure) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue { return }
        let parent = (directory as NSString).deletingLastPathComponent
        if !parent.isEmpty && parent != directory { try makeDirectories(parent) }
        guard mkdir(directory, 0o755) == 0 || errno == EEXIST else {
            throw Failure(description: "cannot create \(directory): \(errnoText())")
        }
    }
}
