import Foundation
import WorkoutValues

/// Every file workout writes whole (an exported activity, `--export-fit`'s FIT file, the
/// sensors file, the editor files, the dead-run note), written so that a failure is never
/// mistaken for success: each write and the final close are checked (a full disk may only
/// say so at `close`, as coreutils' `close_stdout` knows), the error is the system's own
/// in words (`PATH: No space left on device`, never a Foundation error domain), and no
/// partial file is left behind.
///
/// A regular file (or a new one) is written to a temporary file beside it and renamed over
/// it, so a reader never sees half of it; a path that is something else — a device such as
/// `/dev/full` or `/dev/stdout`, a FIFO — is written in place, never replaced (as root, a
/// rename would put a plain file where the device was).
public enum SavedFile {
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public var path: String
        /// The system's words: `No space left on device`.
        public var reason: String

        init(_ path: String, _ code: Int32) {
            self.path = path
            reason = String(cString: strerror(code))
        }

        /// `PATH: No space left on device`, the path escaped for a terminal.
        public var description: String { "\(VisibleText.escape(path)): \(reason)" }
    }

    /// Writes `bytes` as the file at `path`, replacing it.
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws(Failure) {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG, info.st_mode & S_IFMT != S_IFDIR {
            return try writeInPlace(bytes, to: path)
        }
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        var template = Array(((directory.isEmpty ? "." : directory) + "/." + name + ".XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw Failure(path, errno) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do throws(Failure) {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            fchmod(descriptor, mode)
            try finish(descriptor, bytes, path: path)
            guard rename(temporary, path) == 0 else { throw Failure(path, errno) }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Creates the file at `path`, which must not exist yet (`EEXIST` otherwise); a file
    /// it could not fill is removed again.
    public static func create(_ bytes: [UInt8], at path: String, mode: mode_t = 0o644) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw Failure(path, errno) }
        do throws(Failure) {
            try finish(descriptor, bytes, path: path)
        } catch {
            unlink(path)
            throw error
        }
    }

    /// Whether a failure is the file's being there already (`create`).
    public static func exists(_ failure: Failure, path: String) -> Bool {
        failure == Failure(path, EEXIST)
    }

    private static func writeInPlace(_ bytes: [UInt8], to path: String) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw Failure(path, errno) }
        try finish(descriptor, bytes, path: path)
    }

    /// Writes everything to `descriptor`, then closes it; either failing is the error.
    private static func finish(_ descriptor: Int32, _ bytes: [UInt8], path: String) throws(Failure) {
        let code = writeAll(descriptor, bytes)
        // A close that fails after the writes did is as much a lost file as a write that failed.
        let closed = close(descriptor) == 0 ? 0 : errno
        if code != 0 { throw Failure(path, code) }
        if closed != 0 { throw Failure(path, closed) }
    }

    /// Writes everything, or returns the errno that stopped it (0: all written).
    static func writeAll(_ descriptor: Int32, _ all: [UInt8]) -> Int32 {
        var offset = 0
        while offset < all.count {
            let written = all.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return written < 0 ? errno : EIO }
            offset += written
        }
        return 0
    }

    /// `mkdir -p`, with the system's reason when it fails; folders it makes get `mode`.
    public static func makeFolder(_ directory: String, mode: mode_t = 0o755) throws(Failure) {
        var info = stat()
        if stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return }
        let parent = (directory as NSString).deletingLastPathComponent
        if !parent.isEmpty && parent != directory { try makeFolder(parent, mode: mode) }
        guard mkdir(directory, mode) == 0 || errno == EEXIST else { throw Failure(directory, errno) }
    }
}
