import Foundation

/// Reading a file the program expects to be small (a routine, a module, a workout file to
/// import) without trusting it to be: the file is checked before it is read — a regular
/// file (a FIFO would block for ever, a device never end), at most `maximumSize` bytes by
/// its size (a 100 MB file would take several times that in memory before anything
/// refused it) — and a file that grows while it is read is still held to the bound.
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
                "the file is \(BoundedFile.mebibytes(size)) MiB; \(what) may be at most \(BoundedFile.mebibytes(maximum)) MiB"
            case .unreadable(let reason): "cannot read it: \(reason)"
            }
        }
    }

    /// `4`, `0.5`: a size in MiB, to one place.
    static func mebibytes(_ bytes: Int) -> String {
        Number.format(Number.rounded(Double(bytes) / 1_048_576, places: 1))
    }

    public static func read(_ path: String, maximumSize: Int) throws(Problem) -> [UInt8] {
        // Non-blocking, so that opening a FIFO does not wait for a writer.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable(String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(String(cString: strerror(errno))) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .directory
        default: throw .notRegular
        }
        guard info.st_size <= maximumSize else { throw .tooBig(size: Int(info.st_size), maximum: maximumSize) }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
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
