import Foundation

/// A small tmpfs of the test's own: a real disk that fills up. The tests run as root (as
/// `make test` runs them), which may mount one; anyone else gets a failure saying so.
final class SmallDisk {
    let directory: URL

    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    init(bytes: Int) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("workout-disk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard mount("tmpfs", directory.path, "tmpfs", 0, "size=\(bytes),mode=0755") == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: directory)
            throw Unavailable(description: "cannot mount a tmpfs at \(directory.path): \(reason) (the tests run as root under make test)")
        }
    }

    deinit {
        umount2(directory.path, Int32(MNT_DETACH))
        try? FileManager.default.removeItem(at: directory)
    }

    /// Takes every free block with a file of its own, until the disk is full.
    @discardableResult
    func fill() -> URL {
        let filler = directory.appendingPathComponent("filler")
        let descriptor = open(filler.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0x2E, count: 512)
        while block.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        return filler
    }
}
