import Foundation
import WorkoutValues

/// Reading a file the program expects to be small (a routine, a module, a workout file to
/// import) without trusting it to be: the file is checked before it is read — a regular
/// file (a FIFO would block for ever, a device never end), at most `maximumSize` bytes by
/// its size (a 100 MB file would take several times that in memory before anything
/// refused it) — and a file that grows while it is read is still held to the bound. Every
/// file workout reads goes through it: routines, modules, `sounds.lua`, the athlete and
/// sensors files, files to import, activity files, the dead-run note, and (with `open`,
/// for the decoder to read) sound files.
public enum BoundedFile {
    public enum Problem: Error, Equatable {
        case missing
        case directory
        case notRegular
        /// The size found (at least; reading stops past the bound), and the bound.
        case tooBig(size: Int, maximum: Int)
        case unreadable(String)

        /// Finishes "<path>: …"; `what` names the file ("a routine file").
        public func explanation(what: String) -> String {
            switch self {
            case .missing: "no such file"
            case .directory: "it is a directory, not \(what)"
            case .notRegular: "not a regular file (expected \(what))"
            case let .tooBig(size, maximum):
                "the file is \(BoundedFile.size(size)); \(what) may be at most \(BoundedFile.size(maximum))"
            case .unreadable(let reason): "cannot read it: \(reason)"
            }
        }
    }

    /// `4 MiB`, `21.5 MiB`: a size in MiB, to one place; under a MiB, in KiB (`64 KiB`).
    static func size(_ bytes: Int) -> String {
        if bytes < 1_048_576 { return "\(Number.format(Number.rounded(Double(bytes) / 1024, places: 1))) KiB" }
        return "\(Number.format(Number.rounded(Double(bytes) / 1_048_576, places: 1))) MiB"
    }

    /// The file opened for reading, once it is known to be a regular file within the
    /// bound: the descriptor (blocking again, as a reader such as libsndfile expects) and
    /// its size. `followLinks` false: a symbolic link is not followed (`ELOOP`, unreadable).
    public static func open(_ path: String, maximumSize: Int, followLinks: Bool = true) throws(Problem) -> (Int32, Int) {
        // Non-blocking, so that opening a FIFO does not wait for a writer.
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followLinks ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else {
            throw errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable(String(cString: strerror(errno)))
        }
        var info = stat()
        let problem: Problem? = if fstat(descriptor, &info) != 0 {
            .unreadable(String(cString: strerror(errno)))
        } else if info.st_mode & S_IFMT == S_IFDIR {
            .directory
        } else if info.st_mode & S_IFMT != S_IFREG {
            .notRegular
        } else if info.st_size > maximumSize {
            .tooBig(size: Int(info.st_size), maximum: maximumSize)
        } else {
            nil
        }
        if let problem {
            close(descriptor)
            throw problem
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return (descriptor, Int(info.st_size))
    }

    public static func read(_ path: String, maximumSize: Int) throws(Problem) -> [UInt8] {
        let (descriptor, size) = try open(path, maximumSize: maximumSize)
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
            guard count > 0 else { break }
            filled += count
            guard filled <= maximumSize else { throw .tooBig(size: filled, maximum: maximumSize) }
            if filled == bytes.count { bytes += [UInt8](repeating: 0, count: min(4096, maximumSize + 1 - filled)) }
        }
        return Array(bytes[..<filled])
    }
}
