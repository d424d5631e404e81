import Foundation
import IntervalEngine
import RemoteControl
import WorkoutValues

/// What each request gets. Order matters: a Host that is not this machine is refused
/// first (a page of another site that a DNS name was pointed here from), then without the
/// token 403 and nothing else (not even whether the path exists); then 404 for an unknown
/// path, 405 for a wrong method, 403 for a POST from another site's page, 400 or 413 for a
/// bad body. No answer echoes the request's bytes.
struct Routes: Sendable {
    let token: String
    let hosts: ServedHosts
    let feed: EventFeed
    /// The class page's pushed roster (`/class/events`).
    let classFeed: ClassFeed
    let snapshot: @MainActor @Sendable () -> SessionSnapshot
    let control: @MainActor @Sendable (SessionCommand) -> Void
    /// The class's roster as JSON (`run --mqtt`), read off the main thread; nil without a class.
    var participants: (@Sendable () -> String)? = nil

    /// The largest `POST /control` body read: the same bound as `--mqtt`'s PREFIX/cmd.
    static let largestBody = ControlRequest.largestBody

    /// Each path and the one method it takes (GET's paths take HEAD too).
    static let methods: [String: String] = ["/": "GET", "/state": "GET", "/events": "GET", "/control": "POST",
                                            "/class": "GET", "/class.json": "GET", "/class/events": "GET"]

    /// `body` is nil when it was larger than `largestBody` (and was not read).
    func respond(_ request: RequestHead, body: [UInt8]?) async -> Answer {
        guard let host = request.headers["host"], hosts.accepts(host) else {
            return Answer(.forbidden, "the Host header must name this machine\n")
        }
        guard authorized(request) else { return Answer(.forbidden) }
        guard let method = Routes.methods[request.path] else {
            return Answer(.notFound, "no such path (/, /state, /events, /control, /class, /class.json, /class/events)\n")
        }
        let head = request.method == "HEAD" && method == "GET"
        guard request.method == method || head else {
            var answer = Answer(.methodNotAllowed, "\(request.path) takes \(method)\n")
            answer.headers.append(("Allow", method == "GET" ? "GET, HEAD" : method))
            return answer
        }
        var answer: Answer
        switch request.path {
        case "/": answer = Answer(.ok, LivePage.html, type: "text/html; charset=utf-8")
        case "/state": answer = await state()
        case "/events": answer = head ? Answer(events: nil) : await events()
        case "/class":
            answer = Answer(.ok, ClassPage.html, type: "text/html; charset=utf-8")
            answer.headers.append(("Content-Security-Policy", ClassPage.policy))
        case "/class.json":
            answer = Answer(.ok, (participants?() ?? ClassPage.noClass) + "\n", type: "application/json")
        case "/class/events":
            answer = head ? Answer(events: nil) : classEvents()
        default: return await command(request, body: body, host: host)
        }
        answer.headOnly = head
        return answer
    }

    /// `?token=` or `Authorization: Bearer`.
    private func authorized(_ request: RequestHead) -> Bool {
        if ServeToken.matches(request.query["token"].map { Substring($0) }, token) { return true }
        guard let header = request.headers["authorization"], header.hasPrefix("Bearer ") else { return false }
        return ServeToken.matches(header.dropFirst("Bearer ".count), token)
    }

    private func state() async -> Answer {
        let snapshot = self.snapshot
        let text = await onMain { snapshot().json.text }
        return Answer(.ok, text + "\n", type: "application/json")
    }

    private func events() async -> Answer {
        let feed = self.feed
        guard let stream = await onMain({ feed.open() }) else {
            return Answer(.serviceUnavailable, "already \(EventFeed.maximumViewers) viewers\n")
        }
        return Answer(events: stream)
    }

    /// Neither the main thread nor the session: the class feed lives beside the roster.
    private func classEvents() -> Answer {
        guard let stream = classFeed.open() else { return Answer(.serviceUnavailable, "the workout is over\n") }
        return Answer(events: stream)
    }

    /// A browser names the page a POST comes from: only the served page itself may send
    /// commands (a token in another site's page is refused all the same).
    private func command(_ request: RequestHead, body: [UInt8]?, host: String) async -> Answer {
        if let origin = request.headers["origin"], origin.lowercased() != "http://" + host.lowercased() {
            return Answer(.forbidden, "commands are taken from the workout's own page only\n")
        }
        guard let body else {
            return Answer(.payloadTooLarge, "the body may have at most \(Routes.largestBody) bytes\n")
        }
        let command: SessionCommand
        do {
            command = try ControlRequest.command(from: Data(body))
        } catch {
            return Answer(.badRequest, error.message + "\n")
        }
        let control = self.control
        // The control applies the command and tells the viewers once (`commandApplied`).
        await onMain { control(command) }
        return Answer(.noContent)
    }
}

/// Runs `body` on the main queue, where the session lives, and returns its value.
func onMain<T: Sendable>(_ body: @escaping @MainActor @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        DispatchQueue.main.async { continuation.resume(returning: MainActor.assumeIsolated { body() }) }
    }
}
