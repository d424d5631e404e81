import FlyingFox
import Foundation
import IntervalEngine

/// What each request gets. Order matters: without the token, 403 and nothing else (not
/// even whether the path exists); then 404 for an unknown path, 405 for a wrong method,
/// 400 or 413 for a bad body.
struct Routes: Sendable {
    let token: String
    let feed: MainThreadOnly<EventFeed>
    let snapshot: MainThreadOnly<() -> SessionSnapshot>
    let control: MainThreadOnly<(SessionCommand) -> Void>

    /// The largest `POST /control` body read.
    static let largestBody = 4096

    /// Each path and the one method it takes.
    static let methods: [String: HTTPMethod] = ["/": .GET, "/state": .GET, "/events": .GET, "/control": .POST]

    func respond(_ request: HTTPRequest) async -> HTTPResponse {
        guard authorized(request) else { return Routes.answer(.forbidden) }
        guard let method = Routes.methods[request.path] else {
            return Routes.answer(.notFound, "no such path: \(request.path) (/, /state, /events, /control)\n")
        }
        guard request.method == method else {
            var response = Routes.answer(.methodNotAllowed, "\(request.path) takes \(method.rawValue)\n")
            response.headers[HTTPHeader("Allow")] = method.rawValue
            return response
        }
        switch request.path {
        case "/": return Routes.answer(.ok, LivePage.html, type: "text/html; charset=utf-8")
        case "/state": return await state()
        case "/events": return await events()
        default: return await command(request)
        }
    }

    /// `?token=` or `Authorization: Bearer`.
    private func authorized(_ request: HTTPRequest) -> Bool {
        if ServeToken.matches(request.query["token"].map { Substring($0) }, token) { return true }
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return false }
        return ServeToken.matches(header.dropFirst("Bearer ".count), token)
    }

    private func state() async -> HTTPResponse {
        let snapshot = self.snapshot
        let text = await onMain { snapshot.value().json.text }
        return Routes.answer(.ok, text + "\n", type: "application/json")
    }

    private func events() async -> HTTPResponse {
        let feed = self.feed
        guard let stream = await onMain({ feed.value.open() }) else {
            return Routes.answer(.serviceUnavailable, "already \(EventFeed.maximumViewers) viewers\n")
        }
        var headers = Routes.common
        headers[.contentType] = "text/event-stream"
        return HTTPResponse(statusCode: .ok, headers: headers, body: HTTPBodySequence(from: FeedBytes(stream)))
    }

    private func command(_ request: HTTPRequest) async -> HTTPResponse {
        if let count = request.bodySequence.count, count > Routes.largestBody {
            return Routes.answer(.payloadTooLarge, "the body may have at most \(Routes.largestBody) bytes\n")
        }
        var body = Data()
        do {
            for try await chunk in request.bodySequence {
                body += chunk
                if body.count > Routes.largestBody {
                    return Routes.answer(.payloadTooLarge, "the body may have at most \(Routes.largestBody) bytes\n")
                }
            }
        } catch {
            return Routes.answer(.badRequest, "the body could not be read\n")
        }
        let command: SessionCommand
        do {
            command = try ControlRequest.command(from: body)
        } catch {
            return Routes.answer(.badRequest, error.message + "\n")
        }
        let control = self.control
        // The control applies the command and tells the viewers once (`commandApplied`).
        await onMain { control.value(command) }
        return HTTPResponse(statusCode: .noContent, headers: Routes.common)
    }

    /// Never cached (the token is in the URL), never sniffed, never sent on as a referrer.
    static var common: HTTPHeaders {
        var headers = HTTPHeaders()
        headers[.cacheControl] = "no-store"
        headers[HTTPHeader("X-Content-Type-Options")] = "nosniff"
        headers[HTTPHeader("Referrer-Policy")] = "no-referrer"
        return headers
    }

    static func answer(_ status: HTTPStatusCode, _ text: String = "",
                       type: String = "text/plain; charset=utf-8") -> HTTPResponse {
        var headers = common
        if !text.isEmpty { headers[.contentType] = type }
        return HTTPResponse(statusCode: status, headers: headers, body: Data(text.utf8))
    }
}

/// Runs `body` on the main queue, where the session lives, and returns its value.
func onMain<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        DispatchQueue.main.async { continuation.resume(returning: body()) }
    }
}
