import Foundation
import IntervalEngine
import PastSessions

/// `workout history forget`: one line taken out of the history. The file is read,
/// written without that line to a temporary file beside it, synced and renamed over the
/// original, all while holding the lock appends take, so a session that ends meanwhile
/// waits and then appends to the new file instead of being lost with the old one. Every
/// other line, damaged ones included, is kept byte for byte.
extension HistoryFile {
    /// Removes line `line` if it still holds `entry` (it was shown to the user and may
    /// have been forgotten by someone else since); returns false, changing nothing, if
    /// it does not.
    public func remove(line: Int, holding entry: HistoryEntry) throws(Failure) -> Bool {
        let descriptor = try lockedDescriptor(flags: O_RDONLY, lockRequired: true)
        defer { close(descriptor) }
        let data = try Self.readAll(descriptor, path: path)
        let contents = Self.contents(of: data)
        guard let position = contents.lines.firstIndex(of: line), contents.entries[position] == entry else {
            return false
        }
        var kept = Data()
        kept.reserveCapacity(data.count)
        var number = 0
        var start = data.startIndex
        while start < data.endIndex {
            let end = data[start...].firstIndex(of: 0x0A).map { $0 + 1 } ?? data.endIndex
            number += 1
            if number != line { kept.append(data[start..<end]) }
            start = end
        }
        try replace(with: kept, mode: Self.mode(of: descriptor))
        return true
    }

    /// Puts `amended` in place of the newest line that is `entry`'s, byte for byte (a
    /// session's line, with the rating given after it was written), the same way `remove`
    /// takes one out: every other line kept as it is, under the appends' lock. False,
    /// changing nothing, when no line is that one any more.
    public func amend(_ entry: HistoryEntry, to amended: HistoryEntry) throws(Failure) -> Bool {
        let descriptor = try lockedDescriptor(flags: O_RDONLY, lockRequired: true)
        defer { close(descriptor) }
        let data = try Self.readAll(descriptor, path: path)
        let written = Data((entry.json.text + "\n").utf8)
        var lines: [Range<Data.Index>] = []
        var start = data.startIndex
        while start < data.endIndex {
            let end = data[start...].firstIndex(of: 0x0A).map { $0 + 1 } ?? data.endIndex
            lines.append(start..<end)
            start = end
        }
        guard let found = lines.lastIndex(where: { data[$0] == written }) else { return false }
        var kept = Data()
        kept.reserveCapacity(data.count + 32)
        for (index, range) in lines.enumerated() {
            kept.append(index == found ? Data((amended.json.text + "\n").utf8) : data[range])
        }
        try replace(with: kept, mode: Self.mode(of: descriptor))
        return true
    }

    /// Writes `data` to a new file in the same directory and renames it over the history,
    /// then syncs the directory, so the history is always either the old file or the new.
    private func replace(with data: Data, mode: mode_t) throws(Failure) {
        // A history that is a link (kept with dotfiles) stays one: the file it leads to is
        // the one replaced.
        let path = (self.path as NSString).resolvingSymlinksInPath
        let directory = (path as NSString).deletingLastPathComponent
        var template = Array((path + ".XXXXXX").utf8CString)
        let temporary = mkstemp(&template)
        guard temporary >= 0 else {
            throw Failure(description: "cannot create a file in \(directory): \(Self.errnoText())")
        }
        let temporaryPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var renamed = false
        defer {
            close(temporary)
            if !renamed { unlink(temporaryPath) }
        }
        fchmod(temporary, mode)
        var rest = data[...]
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { write(temporary, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw Failure(description: "cannot write \(temporaryPath): \(Self.errnoText())") }
            rest = rest.dropFirst(written)
        }
        guard fsync(temporary) == 0 else { throw Failure(description: "cannot sync \(temporaryPath): \(Self.errnoText())") }
        guard rename(temporaryPath, path) == 0 else {
            throw Failure(description: "cannot replace \(path): \(Self.errnoText())")
        }
        renamed = true
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    private static func mode(of descriptor: Int32) -> mode_t {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? status.st_mode & 0o7777 : 0o644
    }

    private static func readAll(_ descriptor: Int32, path: String) throws(Failure) -> Data {
        var data = Data()
        try readBlocks(descriptor, path: path) { data.append(contentsOf: $0) }
        return data
    }
}
