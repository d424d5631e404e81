import FlyingSocks
import Foundation

/// One client's connection: its requests read within their bounds and answered one after
/// another (keep-alive), until the client goes, a bound is passed, or an event stream ends.
/// Every wait is limited (`PatientPool`): no client holds a connection by sending or
/// reading slowly.
struct Connection: Sendable {
    /// Seconds a request may take to arrive whole, from its first byte: a request is a few
    /// hundred bytes, and a client that sends a byte now and then is let go.
    static let requestLimit = 5.0
    /// Seconds one write may take: a viewer that has not taken its bytes by then loses its
    /// place.
    static let writeLimit = 5.0

    let socket: AsyncSocket
    let routes: Routes

    func serve() async {
        defer { try? socket.close() }
        var buffer: [UInt8] = []
        while true {
            let answer: Answer
            let closing: Bool
            do {
                let (head, body) = try await readRequest(&buffer)
                answer = await routes.respond(head, body: body)
                closing = head.closes || head.contentLength > Routes.largestBody
            } catch let refusal as Refusal {
                try? await write(Answer(refusal.status, refusal.message + "\n").head(closing: true)
                                 + Array((refusal.message + "\n").utf8))
                await lingeringClose()
                return
            } catch {
                return
            }
            if answer.stream != nil {
                await stream(answer)
                return
            }
            do {
                try await write(answer.head(closing: closing) + (answer.headOnly ? [] : answer.body))
            } catch {
                return
            }
            if closing {
                await lingeringClose()
                return
            }
        }
    }

    /// The next request's head, and its body unless it is larger than the routes take (then
    /// nil: the routes refuse it, and the connection ends). The first byte may take as long
    /// as the pool's patience (an idle connection); the rest must follow within
    /// `requestLimit`.
    private func readRequest(_ buffer: inout [UInt8]) async throws -> (RequestHead, [UInt8]?) {
        var searched = 0
        var deadline: ContinuousClock.Instant? = buffer.isEmpty ? nil : .now + .seconds(Connection.requestLimit)
        while true {
            if let end = RequestHead.end(in: buffer, from: searched) {
                guard end <= RequestHead.largest else { throw Refusal.headTooLarge }
                let head = try RequestHead(parsing: buffer[..<end])
                buffer.removeFirst(end)
                guard head.contentLength <= Routes.largestBody else { return (head, nil) }
                while buffer.count < head.contentLength {
                    buffer += try await read(until: deadline)
                }
                let body = Array(buffer.prefix(head.contentLength))
                buffer.removeFirst(head.contentLength)
                return (head, body)
            }
            guard buffer.count <= RequestHead.largest else { throw Refusal.headTooLarge }
            searched = buffer.count
            let more = try await read(until: deadline)
            if deadline == nil { deadline = .now + .seconds(Connection.requestLimit) }
            buffer += more
        }
    }

    private func read(until deadline: ContinuousClock.Instant?) async throws -> [UInt8] {
        let socket = self.socket
        return try await PatientPool.$deadline.withValue(deadline) { try await socket.read(atMost: 4096) }
    }

    private func write(_ bytes: [UInt8]) async throws {
        let socket = self.socket
        try await PatientPool.$deadline.withValue(.now + .seconds(Connection.writeLimit)) {
            try await socket.write(Data(bytes))
        }
    }

    /// A viewer's event stream, chunk by chunk as the feed queues them, each written within
    /// `writeLimit`. Meanwhile the connection is watched for its end (or anything the
    /// viewer sends), which frees the viewer's place at once.
    private func stream(_ answer: Answer) async {
        guard let stream = answer.stream else { return }
        defer { stream.abandon() }
        let socket = self.socket
        try? await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                _ = try? await PatientPool.$waitsForever.withValue(true) { try await socket.read(atMost: 1024) }
                stream.abandon()
            }
            group.addTask {
                try await write(answer.head(closing: true))
                while let bytes = await stream.next() {
                    try await write(Array(String(bytes.count, radix: 16).utf8) + [13, 10] + bytes + [13, 10])
                }
                try await write(Array("0\r\n\r\n".utf8))
            }
            defer { group.cancelAll() }
            try await group.next()
        }
    }

    /// After an answer that ends the connection: the client may still be sending (a body
    /// too large, a head too long). Closing with unread bytes would reset the connection and
    /// could lose the answer, so the sending side is shut and up to 64 KiB read and dropped
    /// for at most a second first.
    private func lingeringClose() async {
        shutdown(socket.socket.file.rawValue, Int32(SHUT_WR))
        let until = ContinuousClock.now + .seconds(1)
        var drained = 0
        while drained < 64 * 1024, let bytes = try? await read(until: until) {
            drained += bytes.count
        }
    }
}

extension Refusal {
    static let headTooLarge = Refusal(.headersTooLarge,
                                      "the request line and headers may have at most \(RequestHead.largest) bytes")
}
