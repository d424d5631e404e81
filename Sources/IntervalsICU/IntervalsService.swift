import Foundation
import IntervalEngine
import WorkoutValues

/// intervals.icu's API as workout uses it: HTTP Basic authentication with the user name
/// `API_KEY` and the athlete's key as password, athlete `0` meaning the key's owner.
/// `INTERVALS_ICU_URL` sets the address (default https://intervals.icu), for tests and
/// proxies; `INTERVALS_ICU_TIMEOUT` the seconds to wait for an answer (default 30).
/// Every status it does not expect becomes one line that says what to do.
public struct IntervalsService: Sendable {
    public static let defaultAddress = "https://intervals.icu"
    public static let addressVariable = "INTERVALS_ICU_URL"
    public static let timeoutVariable = "INTERVALS_ICU_TIMEOUT"

    public var address: String
    public var key: IntervalsKey
    public var timeout: Double

    public init(key: IntervalsKey, environment: [String: String]) throws(IntervalsProblem) {
        self.key = key
        var address = environment[Self.addressVariable].flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultAddress
        while address.hasSuffix("/") { address.removeLast() }
        guard address.hasPrefix("https://") || address.hasPrefix("http://") else {
            throw IntervalsProblem("\(Self.addressVariable) must start with https:// or http://, got \(VisibleText.escape(address))")
        }
        // The key goes as a password: in clear text only to this machine (a test, a proxy
        // of one's own), never across a network.
        guard address.hasPrefix("https://") || Self.isLoopback(address) else {
            throw IntervalsProblem("\(Self.addressVariable): plain http:// would send the API key in clear text; "
                                   + "use https://, or http:// to this machine (127.0.0.1, localhost, [::1]) only")
        }
        self.address = address
        timeout = 30
        if let given = environment[Self.timeoutVariable], !given.isEmpty {
            guard let seconds = Double(given), seconds > 0, seconds <= 3600 else {
                throw IntervalsProblem("\(Self.timeoutVariable) must be seconds from 0 to 3600, got \(VisibleText.escape(given))")
            }
            timeout = seconds
        }
    }

    /// `http://127.0.0.1:8080`, `http://localhost/`, `http://[::1]:80`: this machine.
    static func isLoopback(_ address: String) -> Bool {
        var host = address.dropFirst("http://".count).prefix { $0 != "/" }
        if host.hasPrefix("[") {
            host = host.dropFirst().prefix { $0 != "]" }
            return host == "::1"
        }
        host = host.prefix { $0 != ":" }
        return host == "localhost" || host.hasPrefix("127.") && host.split(separator: ".").count == 4
    }

    /// Sends the request for `path` (under the address) and gives the answer of a status in
    /// 200–299; any other status, or none, is an `IntervalsProblem`.
    public func send(_ method: HTTPRequest.Method, _ path: String, body: HTTPRequest.Body = .none) throws(IntervalsProblem) -> HTTPAnswer {
        let request = HTTPRequest(method, address + path, body: body, user: "API_KEY", password: key.secret, timeout: timeout)
        let answer: HTTPAnswer
        do {
            answer = try HTTPClient.send(request)
        } catch .noLibrary {
            throw IntervalsProblem(HTTPFailure.noLibrary.message)
        } catch {
            throw IntervalsProblem("intervals.icu (\(VisibleText.escape(address))): \(error.message)", retry: true)
        }
        guard !(200..<300).contains(answer.status) else { return answer }
        throw problem(answer, method: method, path: path)
    }

    /// The one line for a status that is not success.
    func problem(_ answer: HTTPAnswer, method: HTTPRequest.Method, path: String) -> IntervalsProblem {
        let status = answer.status
        let said = Self.said(answer).map { ": \($0)" } ?? ""
        switch status {
        case 401, 403:
            return IntervalsProblem("intervals.icu refused the API key from \(key.source) (\(status)): check it on the site's "
                                    + "Settings → Developer Settings, then `workout intervals login` or \(IntervalsKey.variable)",
                                    status: status)
        case 404:
            return IntervalsProblem("intervals.icu has no \(VisibleText.escape(path.split(separator: "?").first.map(String.init) ?? path)) (404)\(said)",
                                    status: status)
        case 409:
            return IntervalsProblem("intervals.icu already has it (409)\(said)", status: status)
        case 422:
            return IntervalsProblem("intervals.icu did not accept the \(method.rawValue) (422)\(said)", status: status)
        case 429:
            return IntervalsProblem("intervals.icu asks to slow down (429): try again in a minute", retry: true, status: status)
        case 500...599:
            return IntervalsProblem("intervals.icu failed to answer (\(status)): try again later", retry: true, status: status)
        default:
            return IntervalsProblem("intervals.icu answered \(status) to \(method.rawValue) \(VisibleText.escape(path))\(said)",
                                    status: status)
        }
    }

    /// The error's own words where the answer gives them (`{"error": "…"}`), escaped and at
    /// most 200 characters.
    static func said(_ answer: HTTPAnswer) -> String? {
        let json = answer.body.withUnsafeBufferPointer { JSONReader.value($0) }
        for field in ["error", "message"] {
            if case .string(let text)? = json?[field], !text.isEmpty {
                let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
                return VisibleText.escape(line.count > 200 ? String(line.prefix(200)) + "…" : line)
            }
        }
        return nil
    }
}

extension IntervalsService {
    /// The key's athlete's name (`GET /api/v1/athlete/0`), which checks the key.
    public func athleteName() throws(IntervalsProblem) -> String? {
        let answer = try send(.get, "/api/v1/athlete/0")
        guard case .string(let name)? = answer.body.withUnsafeBufferPointer({ JSONReader.value($0) })?["name"], !name.isEmpty else {
            return nil
        }
        return name
    }
}
