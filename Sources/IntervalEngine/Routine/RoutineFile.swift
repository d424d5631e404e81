import Foundation

/// Reading a routine (or a module it requires) from disk. The file is checked before it
/// is read: a regular file (a FIFO would block the load for ever, a device never end), at
/// most `maximumSize` bytes (a 100 MB file would take several times that in memory
/// before Lua refused it).
enum RoutineFile {
    /// 4 MiB: hundreds of times a long routine.
    static let maximumSize = 4 * 1024 * 1024

    enum Problem: Error {
        case missing
        case directory
        case notRegular
        case tooBig(Int)
        case unreadable(String)

        /// Finishes "<path>: …".
        var explanation: String {
            switch self {
            case .missing: "no such routine file"
            case .directory: "cannot read the routine (it is a directory)"
            case .notRegular: "not a regular file (a routine is a .lua file)"
            case .tooBig(let size):
                "the file is \(Number.format(Number.rounded(Double(size) / 1_048_576, places: 1))) MiB; "
                    + "a routine file may be at most \(maximumSize / 1_048_576) MiB"
            case .unreadable(let reason): "cannot read the routine: \(reason)"
            }
        }
    }

    static func read(_ path: String) throws(Problem) -> [UInt8] {
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
        guard info.st_size <= maximumSize else { throw .tooBig(Int(info.st_size)) }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
            guard count > 0 else { break }
            filled += count
            // A file that grew while being read is still held to the limit.
            guard filled <= maximumSize else { throw .tooBig(filled) }
            if filled == bytes.count { bytes += [UInt8](repeating: 0, count: 4096) }
        }
        return Array(bytes[..<filled])
    }
}
