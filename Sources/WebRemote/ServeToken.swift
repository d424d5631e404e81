import Foundation
import IntervalEngine
import Platform
import Serving

/// The secret every request to the page and the API must carry: 128 random bits,
/// kept in `$XDG_CONFIG_HOME/workout/serve-token` (mode 0600, made on first use), so that
/// a phone's bookmark keeps working from one workout to the next. `--new-token` replaces
/// it, which locks out every device that had the old one.
public enum ServeToken {
    /// 16 bytes as base64url: 22 characters, short enough for a small QR code.
    static let byteCount = 16

    /// Found as the routines and the history are (`UserDirectories`: `$HOME` honoured, a
    /// relative `XDG_CONFIG_HOME` ignored).
    public static func file(environment: [String: String]) -> String {
        UserDirectories(environment: environment).serveToken
    }

    /// The most of a token file read: a token and a newline, with room to spare. A larger
    /// file is refused without reading the rest.
    static let largestFile = 256

    /// Of a token's characters, at least this many different ones: 22 random base64url
    /// characters have about 18, and a token typed by hand (`aaaa…`, `abab…`) is refused.
    static let leastVariety = 10

    /// The token in `path`, made there first if the file does not exist (or anew with
    /// `renew`). A file others may read is refused rather than trusted.
    public static func load(from path: String, renew: Bool = false) throws(ServeError) -> String {
        if !renew, let existing = try read(path) { return existing }
        let token = fresh()
        try write(token, to: path)
        return token
    }

    /// A new random token.
    static func fresh() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Whether text can be a token: 22 to 128 base64url characters, of at least
    /// `leastVariety` different ones.
    static func isWellFormed(_ text: String) -> Bool {
        (22...128).contains(text.count) && Set(text.unicodeScalars).count >= leastVariety && text.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
        }
    }

    private static func read(_ path: String) throws(ServeError) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw .failure("\(path): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw .failure("\(path) may be read by others (mode \(String(info.st_mode & 0o777, radix: 8))): "
                           + "chmod 600 it, or run with --new-token to make a new one")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw .failure("\(path) is not a plain file: remove it, or run with --new-token to make a new one")
        }
        guard let data = prefix(of: path, count: largestFile + 1) else {
            throw .failure("\(path): cannot be read")
        }
        guard data.count <= largestFile else {
            throw .failure("\(path) is larger than a token (\(largestFile) bytes at most): "
                           + "run with --new-token to make a new one")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard isWellFormed(text) else {
            throw .failure("\(path) does not hold a token (22 to 128 of A-Z a-z 0-9 - _, not too few different ones): "
                           + "run with --new-token to make a new one")
        }
        return text
    }

    /// At most `count` bytes from the start of the file.
    private static func prefix(of path: String, count: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes[filled...].withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { return nil }
            if got == 0 { break }
            filled += got
        }
        return Array(bytes[..<filled])
    }

    /// Writes a temporary file with mode 0600 beside the token and renames it over, so
    /// a reader never sees half a token and the secret is never readable by others.
    private static func write(_ token: String, to path: String) throws(ServeError) {
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .failure("\(directory): cannot be made (\(error.localizedDescription))")
        }
        let temporary = path + ".new"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .failure("\(temporary): \(String(cString: strerror(errno)))") }
        let bytes = Array((token + "\n").utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .failure("\(path): cannot be written (\(reason))")
        }
    }

    /// Compares in time that does not depend on where the texts differ, so the answer's
    /// timing tells a guesser nothing.
    public static func matches(_ given: Substring?, _ token: String) -> Bool {
        guard let given else { return false }
        let a = Array(given.utf8)
        let b = Array(token.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<b.count {
            difference |= (index < a.count ? a[index] : 0) ^ b[index]
        }
        return difference == 0
    }
}
