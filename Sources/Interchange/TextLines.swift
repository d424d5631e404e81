import IntervalEngine

/// The lines of a text file as people save them: LF or CRLF line ends (Windows editors
/// and browser downloads write CRLF), with or without a UTF-8 byte-order mark at the
/// start. Every reader of text files reads its lines here, so that a file reads the
/// same whichever way it was saved.
enum TextLines {
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Each line without its line end; the last one may be empty (after a final line end).
    static func lines(_ bytes: [UInt8]) -> [String] {
        let text = bytes.starts(with: byteOrderMark) ? bytes[3...] : bytes[...]
        return text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
        }
    }
}
