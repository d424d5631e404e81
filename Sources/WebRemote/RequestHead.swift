import Foundation

/// A request's line and headers, read by the server itself so that what a client may send
/// is bounded: at most `largest` bytes for the whole head (a longer one is refused with
/// 431 before more is read), each byte looked at once (the end is searched for only in
/// what arrived since the last look), and only what the routes need is kept.
struct RequestHead: Sendable {
    /// Far more than a browser sends (a few hundred bytes to 2 KiB, cookies apart, and this
    /// server sets none), small enough that 256 connections hold 4 MiB at most.
    static let largest = 16 * 1024

    var method: String
    /// The path, percent-decoded, without the query.
    var path: String
    var query: [String: String]
    /// Header names in lower case; a header sent twice keeps its first value, except Host,
    /// which is refused.
    var headers: [String: String]
    /// HTTP/1.0, or `Connection: close`: the connection ends after the answer.
    var closes: Bool
    var contentLength: Int

    /// Where the head ends in `bytes` (the index after its blank line), looking from
    /// `start` on; nil when it has not arrived yet.
    static func end(in bytes: [UInt8], from start: Int) -> Int? {
        var index = max(start, 1)
        while index < bytes.count {
            if bytes[index] == 10 {
                if bytes[index - 1] == 10 { return index + 1 }
                if index >= 2, bytes[index - 1] == 13, bytes[index - 2] == 10 { return index + 1 }
            }
            index += 1
        }
        return nil
    }

    /// Reads a whole head (its blank line included).
    init(parsing bytes: ArraySlice<UInt8>) throws(Refusal) {
        var lines = bytes.split(separator: 10, omittingEmptySubsequences: false).map { line in
            line.last == 13 ? line.dropLast() : line
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let first = lines.first else { throw Refusal(.badRequest, "no request line") }
        let parts = first.split(separator: 32, omittingEmptySubsequences: false)
        guard parts.count == 3, let version = String(bytes: parts[2], encoding: .ascii),
              version == "HTTP/1.1" || version == "HTTP/1.0",
              let method = String(bytes: parts[0], encoding: .ascii), !method.isEmpty,
              method.utf8.allSatisfy({ (65...90).contains($0) }),
              let target = String(bytes: parts[1], encoding: .ascii), target.hasPrefix("/"),
              target.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            throw Refusal(.badRequest, "the request line must be METHOD /path HTTP/1.1")
        }
        self.method = method
        let question = target.firstIndex(of: "?")
        let rawPath = String(target[..<(question ?? target.endIndex)])
        guard let path = rawPath.removingPercentEncoding else { throw Refusal(.badRequest, "the path is not percent-encoded UTF-8") }
        self.path = path
        var query: [String: String] = [:]
        if let question {
            for pair in target[target.index(after: question)...].split(separator: "&") {
                let sides = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(sides[0]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
                let value = sides.count > 1
                    ? String(sides[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" : ""
                if query[name] == nil { query[name] = value }
            }
        }
        self.query = query
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: 58), colon > line.startIndex,
                  let name = String(bytes: line[..<colon], encoding: .ascii),
                  name.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else {
                throw Refusal(.badRequest, "a header line must be Name: value")
            }
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            let key = name.lowercased()
            if key == "host", headers[key] != nil { throw Refusal(.badRequest, "Host is given twice") }
            if headers[key] == nil { headers[key] = value }
        }
        self.headers = headers
        let connection = headers["connection"]?.lowercased() ?? ""
        closes = version == "HTTP/1.0" ? !connection.contains("keep-alive") : connection.contains("close")
        if headers["transfer-encoding"] != nil {
            throw Refusal(.lengthRequired, "send the body with Content-Length")
        }
        if let length = headers["content-length"] {
            guard let count = Int(length), count >= 0, length.utf8.allSatisfy({ (48...57).contains($0) }) else {
                throw Refusal(.badRequest, "Content-Length must be a number of bytes")
            }
            contentLength = count
        } else {
            contentLength = 0
        }
    }
}

/// A request refused before it reaches the routes: its status and what was wrong (never
/// the request's own bytes).
struct Refusal: Error {
    var status: HTTPStatus
    var message: String

    init(_ status: HTTPStatus, _ message: String) {
        self.status = status
        self.message = message
    }
}
