import Foundation
import IntervalEngine
import PastSessions
import WorkoutValues

extension HistoryFile {
    /// Streams the file from its end: each entry, newest first, to `entry` until it
    /// returns false. A routine asking for its last session reads the last block or two,
    /// not a history of 100,000 sessions. Blank lines, damaged lines and lines longer than
    /// `HistoryLines.longest` are passed over. A missing or unreadable file is an empty
    /// history. `program`: only that routine's entries are wanted; a line that starts with
    /// another routine's name (as every line this program writes starts with its
    /// `program`) is passed over without being parsed. Returns how many bytes it read.
    @discardableResult
    public func forEachEntryNewestFirst(program: String? = nil, _ entry: (HistoryEntry) -> Bool) -> Int {
        let opening = Array(#"{"program":"#.utf8)
        let wanted = program.map { Array((#"{"program":"# + JSONValue.string($0).text + ",").utf8) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return 0 }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return 0 }
        let blockSize = 1 << 16
        var end = Int(info.st_size)
        var read = 0
        // The start of a line whose end was in the blocks already read (nearer the end).
        var tail: [UInt8] = []
        // That line is already longer than any real one: it is dropped when its start comes.
        var tooLong = false
        var block = [UInt8](repeating: 0, count: blockSize)
        /// Reads one complete line; false to stop.
        func line(_ bytes: ArraySlice<UInt8>) -> Bool {
            guard !bytes.isEmpty else { return true }
            if let wanted, bytes.starts(with: opening), !bytes.starts(with: wanted) { return true }
            let parsed = bytes.withUnsafeBufferPointer { HistoryEntry(line: $0) }
            guard let parsed else { return true }
            return entry(parsed)
        }
        while end > 0 {
            let start = max(0, end - blockSize)
            var count = 0
            while true {
                count = block.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, end - start, off_t(start)) }
                if count < 0 && errno == EINTR { continue }
                break
            }
            guard count == end - start else { return read }
            read += count
            var combined = Array(block[0..<count])
            if !tooLong { combined += tail }
            // Complete lines: those after the first newline of what is now known.
            var lineEnd = combined.count
            var position = combined.count
            var sawNewline = false
            while position > 0 {
                position -= 1
                guard combined[position] == 0x0A else { continue }
                if sawNewline || !tooLong {
                    if !line(combined[(position + 1)..<lineEnd]) { return read }
                } else {
                    // The end of the overlong line: what follows this newline is its start.
                    tooLong = false
                }
                sawNewline = true
                lineEnd = position
            }
            // Still inside the overlong line: none of this block is kept.
            tail = tooLong ? [] : Array(combined[0..<lineEnd])
            if tail.count > HistoryLines.longest {
                tail = []
                tooLong = true
            }
            end = start
        }
        if !tooLong, !line(tail[...]) { return read }
        return read
    }
}

extension HistoryFile: HistorySource {
    public func forEachSession(named name: String, _ session: (HistoryEntry) -> Bool) -> Int {
        forEachEntryNewestFirst(program: name, session)
    }
}
