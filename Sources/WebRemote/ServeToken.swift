import Foundation
import IntervalEngine

/// The secret every request to the page and the API must carry: 128 random bits,
/// kept in `$XDG_CONFIG_HOME/workout/serve-token` (mode 0600, made on first use), so that
/// a phone's bookmark keeps working from one workout to the next. `--new-token` replaces
/// it, which locks out every device that had the old one.
public enum ServeToken {
    /// 16 bytes as base64url: 22 characters, short enough for a small QR code.
    static let byteCount = 16

    public static func file(environment: [String: String]) -> String {
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".config")
        return (config as NSString).appendingPathComponent("workout/serve-token")
    }

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

    /// Whether text can be a token: 22 or more base64url characters.
    static func isWellFormed(_ text: String) -> Bool {
        text.count >= 22 && text.unicodeScalars.allSatisfy {
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
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .failure("\(path): cannot be read")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard isWellFormed(text) else {
            throw .failure("\(path) does not hold a token (22 or more of A-Z a-z 0-9 - _): run with --new-token to make one")
        }
        return text
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
