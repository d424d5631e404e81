import Foundation
import Platform
import WorkoutValues

/// The athlete's intervals.icu API key (Settings → Developer Settings on the site): the
/// environment's `INTERVALS_ICU_API_KEY`, else the file `workout intervals login` wrote,
/// `$XDG_CONFIG_HOME/workout/intervals-icu-key`, readable by its owner alone. Never an
/// argument, where every user of the machine reads it (`ps`); never printed.
public struct IntervalsKey: Sendable {
    public static let variable = "INTERVALS_ICU_API_KEY"
    /// A key is one short line: a larger file is not a key file.
    static let largestFile = 4096

    public var secret: String
    /// Where it came from, for messages: the variable, or the file's path.
    public var source: String

    public init(secret: String, source: String) {
        self.secret = secret
        self.source = source
    }

    /// The file `login` writes.
    public static func file(_ directories: UserDirectories) -> String { directories.config("intervals-icu-key") }

    /// The key, or why there is none, in one line that says how to set it.
    public static func find(_ directories: UserDirectories) throws(IntervalsProblem) -> IntervalsKey {
        if let secret = directories.environment[variable], !secret.isEmpty {
            return IntervalsKey(secret: secret, source: "$\(variable)")
        }
        let path = file(directories)
        let name = VisibleText.escape(path)
        let bytes: [UInt8]
        do throws(BoundedFile.Problem) {
            bytes = try BoundedFile.read(path, maximumSize: largestFile)
        } catch .missing {
            throw IntervalsProblem("no intervals.icu API key: run `workout intervals login`, or set \(variable)")
        } catch {
            throw IntervalsProblem("the key file \(name): \(error.explanation(what: "a key file"))")
        }
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & 0o077 != 0 {
            throw IntervalsProblem("the key file \(name) may be read by others: `chmod 600 \(name)`, or run `workout intervals login` again")
        }
        guard let secret = checked(String(decoding: bytes, as: UTF8.self)) else {
            throw IntervalsProblem("the key file \(name) does not hold a key: run `workout intervals login` again")
        }
        return IntervalsKey(secret: secret, source: name)
    }

    /// The key as typed or read: its one line, without spaces around it; nil when that is
    /// empty or holds anything but printable ASCII (a key is letters and digits).
    public static func checked(_ text: String) -> String? {
        let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !line.isEmpty, line.count <= 200, line.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            return nil
        }
        return line
    }

    /// Writes the key file, mode 0600 from its creation (the folder made if need be).
    public static func save(_ secret: String, _ directories: UserDirectories) throws(IntervalsProblem) {
        let path = file(directories)
        do {
            try SavedFile.makeFolder((path as NSString).deletingLastPathComponent)
            try SavedFile.write(Array((secret + "\n").utf8), to: path, mode: 0o600)
        } catch {
            throw IntervalsProblem("cannot write the key file: \(error)")
        }
    }
}

/// What went wrong talking to the service, in one line for the terminal. `retry`: it may
/// work later unchanged (no connection, a timeout, 429, 5xx), so what was to be sent waits.
public struct IntervalsProblem: Error, Sendable, Equatable {
    public var message: String
    public var retry: Bool
    public var status: Int?

    public init(_ message: String, retry: Bool = false, status: Int? = nil) {
        self.message = message
        self.retry = retry
        self.status = status
    }
}
