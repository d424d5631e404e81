import Foundation

/// A line to append to a file when the process must end from a signal handler (the Lua
/// watchdog, stopping a library call that cannot be interrupted): the history keeps a
/// line of the session as it stood at its latest boundary here, so even that exit loses
/// no session. Whoever owns the line sets it (`History`'s `HistoryRecorder`); whoever ends the process
/// appends it (`Watchdog`), neither knowing the other.
public enum LastResort {
    /// The line and its file, as C strings: the handler only reads them.
    private struct Shared {
        var path: UnsafeMutablePointer<CChar>?
        var line: UnsafeMutablePointer<CChar>?
        var length = 0
    }

    /// Written on the main thread, read in signal context, where no lock may be taken:
    /// hence `nonisolated(unsafe)`, the compiler being unable to check it.
    nonisolated(unsafe) private static var shared = Shared()

    /// The prepared line and its file, as the handler would write them (tests).
    public static var line: (path: String, line: String)? {
        guard let path = shared.path, let line = shared.line else { return nil }
        return (String(cString: path), String(cString: line))
    }

    /// The line to append before ending the process (nil: none). Set on the main thread
    /// between Lua calls; the handler only runs while the main thread is stuck inside one,
    /// so it never sees a half-made pair.
    public static func set(_ entry: (path: String, line: String)?) {
        let oldPath = shared.path
        let oldLine = shared.line
        shared.path = entry.map { strdup($0.path) }
        shared.line = entry.map { strdup($0.line) }
        shared.length = entry?.line.utf8.count ?? 0
        free(oldPath)
        free(oldLine)
    }

    /// Appends the line, if one is set, under the lock appends take (`History`'s `HistoryFile`), so a
    /// `history forget` replacing the file meanwhile does not drop it. Plain system calls
    /// only: async-signal-safe.
    package static func appendFromHandler() {
        guard let path = shared.path, let line = shared.line else { return }
        for _ in 0..<10 {
            let file = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
            guard file >= 0 else { break }
            _ = flock(file, LOCK_EX)
            var opened = stat()
            var named = stat()
            if fstat(file, &opened) == 0, stat(path, &named) == 0, opened.st_ino != named.st_ino {
                _ = close(file)
                continue
            }
            let written = write(file, line, shared.length)
            if written > 0 && written < shared.length {
                cutBack(file, written: written)
            }
            _ = fsync(file)
            _ = close(file)
            break
        }
    }

    /// Removes the `written` bytes a short append (a full disk) left at the end of the
    /// file, unless another process has appended since (then its line would go too).
    /// Async-signal-safe: the handler calls it as well as the history and activity files.
    public static func cutBack(_ descriptor: Int32, written: Int) {
        let end = lseek(descriptor, 0, SEEK_CUR)
        var info = stat()
        guard end >= written, fstat(descriptor, &info) == 0, info.st_size == end else { return }
        _ = ftruncate(descriptor, end - off_t(written))
    }
}
