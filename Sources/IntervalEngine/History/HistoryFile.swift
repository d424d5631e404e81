import Foundation

/// `$XDG_DATA_HOME/workout/history.jsonl`: one line per session. Each session is
/// appended with a single `write` on a descriptor opened with `O_APPEND`, then `fsync`,
/// so two workouts ending at once never interleave or lose a line (the kernel appends
/// each write whole at the end), and a line written is on disk before the run exits. A
/// write cut short (a full disk) is cut back off, so the lines before it stay whole.
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
    }

    /// Creates the file's directory ahead of the first append, for the watchdog's
    /// last-resort line: its signal handler can only append to a file whose directory
    /// is there.
    public func prepareDirectory() {
        try? Self.makeDirectories((path as NSString).deletingLastPathComponent)
    }

    public func append(_ entry: HistoryEntry) throws(Failure) {
        try Self.makeDirectories((path as NSString).deletingLastPathComponent)
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(description: "cannot open \(path): \(Self.errnoText())") }
        defer { close(descriptor) }
        let bytes = Array((entry.json.text + "\n").utf8)
        var written = -1
        repeat {
            written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        } while written < 0 && errno == EINTR
        guard written == bytes.count else {
            // A second write for the rest could land after another process's line. The
            // part that was written is cut off again, or the next session's line would be
            // glued to it and both be lost.
            let reason = written < 0 ? Self.errnoText() : "only \(written) of \(bytes.count) bytes written"
            if written > 0 { Self.cutBack(descriptor, written: written) }
            throw Failure(description: "cannot write \(path): \(reason)")
        }
        guard fsync(descriptor) == 0 else { throw Failure(description: "cannot sync \(path): \(Self.errnoText())") }
    }

    /// What the file holds: the entries in file order, and the 1-based numbers of lines
    /// that are not whole entries (skipped, never fatal). A missing file is an empty
    /// history.
    public func read() throws(Failure) -> (entries: [HistoryEntry], damaged: [Int]) {
        var entries: [HistoryEntry] = []
        var damaged: [Int] = []
        try forEachEntry { entries.append($0) } damaged: { damaged.append($0) }
        return (entries, damaged)
    }

    /// The longest line read as an entry: a real one is a few hundred bytes; a longer one
    /// is damage, skipped without holding it whole.
    public static let longestLine = 64 * 1024

    /// Streams the file: each entry in file order to `entry`, each damaged line's 1-based
    /// number to `damaged`. Memory stays at a block and a line, however long the history
    /// (`workout history` over 500,000 sessions). A missing file is an empty history.
    public func forEachEntry(_ entry: (HistoryEntry) -> Void, damaged: (Int) -> Void) throws(Failure) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return }
            throw Failure(description: "cannot read \(path): \(Self.errnoText())")
        }
        defer { close(descriptor) }
        var line: [UInt8] = []
        var number = 0
        var tooLong = false
        func finish() {
            number += 1
            defer {
                line.removeAll(keepingCapacity: true)
                tooLong = false
            }
            guard !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) || tooLong else { return }
            if !tooLong, let read = HistoryEntry(bytes: line) {
                entry(read)
            } else {
                damaged(number)
            }
        }
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = block.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw Failure(description: "cannot read \(path): \(Self.errnoText())") }
            guard count > 0 else { break }
            var start = 0
            for position in 0..<count where block[position] == 0x0A {
                if !tooLong { line += block[start..<position] }
                finish()
                start = position + 1
            }
            if !tooLong && start < count {
                line += block[start..<count]
                if line.count > Self.longestLine {
                    tooLong = true
                    line.removeAll(keepingCapacity: true)
                }
            }
        }
        if !line.isEmpty || tooLong { finish() }
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }

    /// Removes the `written` bytes a short append (a full disk) left at the end of the
    /// file, unless another process has appended since (then its line would go too).
    /// Async-signal-safe: the watchdog's handler calls it as well.
    static func cutBack(_ descriptor: Int32, written: Int) {
        let end = lseek(descriptor, 0, SEEK_CUR)
        var info = stat()
        guard end >= written, fstat(descriptor, &info) == 0, info.st_size == end else { return }
        _ = ftruncate(descriptor, end - off_t(written))
    }

    /// `mkdir -p`, with the system's reason when it fails (Foundation's error on Linux
    /// says only "The operation could not be completed").
    private static func makeDirectories(_ directory: String) throws(Failure) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue { return }
        let parent = (directory as NSString).deletingLastPathComponent
        if !parent.isEmpty && parent != directory { try makeDirectories(parent) }
        guard mkdir(directory, 0o755) == 0 || errno == EEXIST else {
            throw Failure(description: "cannot create \(directory): \(errnoText())")
        }
    }
}
