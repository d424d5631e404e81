import Foundation
import Platform
import WorkoutValues

/// The sensors a run connects to unless told otherwise: `$XDG_CONFIG_HOME/workout/sensors`,
/// one Bluetooth address a line (a name may follow it, for the reader; `#` starts a
/// comment). `workout sensors add|remove` edit it; a person may too.
public struct RememberedSensors: Sendable {
    public let path: String

    public init(directories: UserDirectories) {
        path = directories.config("sensors")
    }

    /// A bad line in the file: where, and why.
    public struct BadLine: Error, CustomStringConvertible {
        public var path: String
        public var line: Int
        public var text: String
        public var description: String {
            "\(VisibleText.escape(path)):\(line): not a Bluetooth address: \(VisibleText.escape(text))"
        }
    }

    /// Whether `text` is a Bluetooth address (six pairs of hex digits joined by colons).
    public static func isAddress(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 6 && parts.allSatisfy { $0.count == 2 && $0.allSatisfy(\.isHexDigit) }
    }

    /// A file that is not read: where, and why in words (`not a regular file`).
    public struct Unreadable: Error, CustomStringConvertible {
        public var description: String
    }

    /// The largest file read: thousands of addresses. Larger is refused by its size,
    /// before it is read, so a run's timers never wait for it.
    public static let largest = 64 * 1024

    /// The entries in order: address (upper case) and the name written after it, if any.
    /// A missing file is an empty list.
    public func read() throws -> [(address: String, name: String?)] {
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.read(path, maximumSize: Self.largest)
        } catch {
            if case .missing = error { return [] }
            throw Unreadable(description: "\(VisibleText.escape(path)): \(error.explanation(what: "the sensors file"))")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Unreadable(description: "\(VisibleText.escape(path)): not UTF-8 text")
        }
        var entries: [(String, String?)] = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            guard let first = words.first else { continue }
            guard Self.isAddress(String(first)) else {
                throw BadLine(path: path, line: number + 1, text: String(raw))
            }
            let name = words.dropFirst().joined(separator: " ")
            entries.append((first.uppercased(), name.isEmpty ? nil : name))
        }
        return entries
    }

    /// Adds `address` (with `name`, if known) unless it is there already; true when added.
    public func add(_ address: String, name: String? = nil) throws -> Bool {
        let entries = try read()
        guard !entries.contains(where: { $0.address == address.uppercased() }) else { return false }
        try write(entries + [(address.uppercased(), name)])
        return true
    }

    /// Removes `address`; true when it was there.
    public func remove(_ address: String) throws -> Bool {
        let entries = try read()
        let kept = entries.filter { $0.address != address.uppercased() }
        guard kept.count != entries.count else { return false }
        try write(kept)
        return true
    }

    private func write(_ entries: [(address: String, name: String?)]) throws {
        try SavedFile.makeFolder((path as NSString).deletingLastPathComponent)
        let lines = entries.map { entry in
            // A name is kept on one line, without the comment mark that would cut it.
            let name = entry.name.map { $0.filter { $0 != "\n" && $0 != "\r" && $0 != "#" } } ?? ""
            return name.isEmpty ? entry.address : "\(entry.address) \(name)"
        }
        try SavedFile.write(Array(lines.map { $0 + "\n" }.joined().utf8), to: path)
    }
}
