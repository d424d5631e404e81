/// One request to the service, as plain values: the client (`HTTPClient`) turns it into a
/// libcurl transfer. The password goes to libcurl as an option, never into the address, a
/// command line or a log line.
public struct HTTPRequest: Sendable {
    public enum Method: String, Sendable { case get = "GET", post = "POST", put = "PUT" }

    /// A part of a multipart/form-data body: a field, or a file's bytes with its name.
    public struct FormPart: Sendable {
        public var name: String
        public var bytes: [UInt8]
        public var fileName: String?
        public var type: String?

        public init(name: String, bytes: [UInt8], fileName: String? = nil, type: String? = nil) {
            self.name = name
            self.bytes = bytes
            self.fileName = fileName
            self.type = type
        }

        public init(name: String, text: String) {
            self.init(name: name, bytes: Array(text.utf8))
        }
    }

    public enum Body: Sendable {
        case none
        case json([UInt8])
        case form([FormPart])
    }

    public var method: Method
    public var url: String
    public var body: Body
    /// HTTP Basic authentication's user and password.
    public var user: String
    public var password: String
    /// Seconds to connect, and for the whole exchange.
    public var timeout: Double

    public init(_ method: Method, _ url: String, body: Body = .none, user: String, password: String, timeout: Double) {
        self.method = method
        self.url = url
        self.body = body
        self.user = user
        self.password = password
        self.timeout = timeout
    }
}

/// The service's answer: its status and body.
public struct HTTPAnswer: Sendable {
    public var status: Int
    public var body: [UInt8]

    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }

    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// Why no answer came: no libcurl, no connection, no answer in time. Each is one line.
public enum HTTPFailure: Error, Equatable, Sendable {
    case noLibrary
    case unreachable(String)
    case timedOut(Double)

    public var message: String {
        switch self {
        case .noLibrary: "libcurl is not installed (Debian: apt install libcurl4): workout talks to intervals.icu through it"
        case .unreachable(let reason): "cannot reach the service: \(reason)"
        case .timedOut(let seconds): "no answer within \(Int(seconds.rounded())) seconds"
        }
    }
}
