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
        guard FileManager.default.fileExists(atPath: path) else { return ([], []) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "cannot read \(path)")
        }
        let text = String(decoding: data, as: UTF8.self)
        var entries: [HistoryEntry] = []
        var damaged: [Int] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            if let entry = HistoryEntry(line: line) {
                entries.append(entry)
            } else {
                damaged.append(number + 1)
            }
        }
        return (entries, damaged)
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
