import Foundation

/// The statuses the server gives.
struct HTTPStatus: Sendable, Equatable {
    var code: Int
    var reason: String

    static let ok = HTTPStatus(code: 200, reason: "OK")
    static let noContent = HTTPStatus(code: 204, reason: "No Content")
    static let badRequest = HTTPStatus(code: 400, reason: "Bad Request")
    static let forbidden = HTTPStatus(code: 403, reason: "Forbidden")
    static let notFound = HTTPStatus(code: 404, reason: "Not Found")
    static let methodNotAllowed = HTTPStatus(code: 405, reason: "Method Not Allowed")
    static let requestTimeout = HTTPStatus(code: 408, reason: "Request Timeout")
    static let lengthRequired = HTTPStatus(code: 411, reason: "Length Required")
    static let payloadTooLarge = HTTPStatus(code: 413, reason: "Content Too Large")
    static let headersTooLarge = HTTPStatus(code: 431, reason: "Request Header Fields Too Large")
    static let serviceUnavailable = HTTPStatus(code: 503, reason: "Service Unavailable")
}

/// What a request gets: a status, headers and a body, or a viewer's event stream (sent
/// chunked, for as long as the workout runs).
struct Answer: Sendable {
    var status: HTTPStatus
    var headers: [(String, String)]
    var body: [UInt8]
    var stream: FeedStream?
    /// HEAD: the headers GET would give, without the body.
    var headOnly = false

    init(_ status: HTTPStatus, _ text: String = "", type: String = "text/plain; charset=utf-8") {
        self.status = status
        headers = Answer.common
        body = Array(text.utf8)
        if !text.isEmpty { headers.append(("Content-Type", type)) }
    }

    init(events stream: FeedStream?) {
        status = .ok
        headers = Answer.common + [("Content-Type", "text/event-stream")]
        body = []
        self.stream = stream
    }

    /// Never cached (the token is in the URL), never sniffed, never sent on as a referrer.
    static let common = [("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"),
                         ("Referrer-Policy", "no-referrer")]

    /// The status line and headers; `closing` adds `Connection: close`.
    func head(closing: Bool) -> [UInt8] {
        var text = "HTTP/1.1 \(status.code) \(status.reason)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if stream != nil {
            text += "Transfer-Encoding: chunked\r\n"
        } else {
            text += "Content-Length: \(body.count)\r\n"
        }
        if closing { text += "Connection: close\r\n" }
        return Array((text + "\r\n").utf8)
    }
}
