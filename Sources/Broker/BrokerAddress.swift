import WorkoutValues

/// Where `run --mqtt` publishes: `mqtt[s]://[user[:password]@]host[:port]/PREFIX`, read
/// once from the command line or the athlete file. `mqtts` is TLS against the system's CA
/// store, or against `caFile` (`--mqtt-ca`: a broker whose certificate a private CA
/// signed, as a home broker's is); the user and password (percent-encoded where they hold `@`, `:` or `/`) go to
/// the broker as MQTT's username and password. PREFIX is the topic every message of the
/// session goes under: one or more levels, without the wildcards `+` and `#`, without an
/// empty level, not starting with `$` (the broker's own topics).
public struct BrokerAddress: Sendable, Equatable {
    public var tls: Bool
    public var host: String
    public var port: Int
    public var user: String?
    public var password: String?
    public var prefix: String
    /// The CA certificates (PEM) that alone are trusted for `mqtts://`, instead of the
    /// system's store; not part of the URL (`--mqtt-ca`, or the athlete file's `mqtt_ca`).
    public var caFile: String?

    public static let plainPort = 1883
    public static let tlsPort = 8883
    /// A prefix is a topic's first levels; the broker's and Home Assistant's limits are far
    /// above, but a prefix this long is a mistake.
    public static let longestPrefix = 200

    public init(tls: Bool = false, host: String, port: Int? = nil, user: String? = nil, password: String? = nil,
                prefix: String, caFile: String? = nil) {
        self.tls = tls
        self.host = host
        self.port = port ?? (tls ? Self.tlsPort : Self.plainPort)
        self.user = user
        self.password = password
        self.prefix = prefix
        self.caFile = caFile
    }

    /// Reads `text`; the error says what was expected, with the text escaped (and its
    /// password never repeated).
    public init(parsing text: String) throws(BrokerAddressError) {
        let expected = "mqtt://HOST[:PORT]/PREFIX or mqtts://[USER@]HOST[:PORT]/PREFIX"
        guard let schemeEnd = text.range(of: "://") else {
            throw BrokerAddressError("expected \(expected), got \(BrokerAddress.shown(text))")
        }
        switch text[..<schemeEnd.lowerBound].lowercased() {
        case "mqtt": tls = false
        case "mqtts": tls = true
        default:
            throw BrokerAddressError("the address must start with mqtt:// or mqtts:// (\(expected)), got \(BrokerAddress.shown(text))")
        }
        let rest = text[schemeEnd.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else {
            throw BrokerAddressError("the address needs a topic prefix after the host: \(expected)")
        }
        var authority = rest[..<slash]
        let path = String(rest[rest.index(after: slash)...])
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            authority = authority[authority.index(after: at)...]
            let parts = userInfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard let userName = BrokerAddress.percentDecoded(parts[0]), !userName.isEmpty else {
                throw BrokerAddressError("the user name before @ is empty or not percent-encoded UTF-8")
            }
            user = userName
            if parts.count == 2 {
                guard let secret = BrokerAddress.percentDecoded(parts[1]) else {
                    throw BrokerAddressError("the password after \(VisibleText.escape(userName)): is not percent-encoded UTF-8")
                }
                password = secret
            }
        }
        (host, port) = try BrokerAddress.hostAndPort(String(authority), tls: tls)
        prefix = path
        if let problem = BrokerAddress.prefixProblem(path) {
            throw BrokerAddressError("the topic prefix \(problem)")
        }
    }

    /// What a message shows of the address: never the password.
    public var description: String {
        let scheme = tls ? "mqtts" : "mqtt"
        let who = user.map { VisibleText.escape($0) + "@" } ?? ""
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(who)\(shownHost):\(port)/\(VisibleText.escape(prefix))"
    }

    /// Why `prefix` cannot be a topic prefix, or nil.
    public static func prefixProblem(_ prefix: String) -> String? {
        if prefix.isEmpty { return "is empty: name one after the host, as in mqtt://broker/gym" }
        let shown = VisibleText.escape(prefix)
        if prefix.utf8.count > longestPrefix { return "is longer than \(longestPrefix) bytes" }
        if prefix.contains("+") || prefix.contains("#") {
            return "\(shown) holds a wildcard (+ or #): a prefix names topics, it does not match them"
        }
        if prefix.hasPrefix("$") { return "\(shown) starts with $, which the broker keeps for its own topics" }
        if prefix.split(separator: "/", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            return "\(shown) has an empty level (a leading, trailing or double /)"
        }
        if prefix.unicodeScalars.contains(where: { VisibleText.isControl($0) || $0 == "\t" || $0 == " " || $0 == "?" }) {
            return "\(shown) holds a space, a ? or a control character"
        }
        return nil
    }

    /// `host`, `host:port`, `[v6]` or `[v6]:port`.
    private static func hostAndPort(_ authority: String, tls: Bool) throws(BrokerAddressError) -> (String, Int) {
        var host = authority
        var portText: String?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw BrokerAddressError("an IPv6 host needs its closing ]: mqtt://[::1]:1883/PREFIX")
            }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw BrokerAddressError("expected :PORT after ], got \(shown(String(after)))") }
                portText = String(after.dropFirst())
            }
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw BrokerAddressError("\(shown(host)) is not an IPv6 address")
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            portText = String(authority[authority.index(after: colon)...])
        }
        guard !host.isEmpty else { throw BrokerAddressError("the address has no host: mqtt://HOST/PREFIX") }
        guard host.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-._:".unicodeScalars.contains($0)) }) else {
            throw BrokerAddressError("\(shown(host)) is not a host name or address")
        }
        guard let portText else { return (host, tls ? tlsPort : plainPort) }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy(\.isASCII), portText.allSatisfy(\.isNumber),
              let port = Int(portText), (1...65535).contains(port) else {
            throw BrokerAddressError("the port must be a number from 1 to 65535, got \(shown(portText))")
        }
        return (host, port)
    }

    /// `%XX` decoded, as UTF-8; nil where an escape is broken or the bytes are not UTF-8.
    static func percentDecoded<Text: StringProtocol>(_ text: Text) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self),
              !decoded.unicodeScalars.contains(where: { $0.value == 0 }) else { return nil }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// An address as given, for an error: escaped, and with what could be a password
    /// (between `//` and `@`) left out.
    static func shown(_ text: String) -> String {
        var text = text
        if let start = text.range(of: "://"), let at = text[start.upperBound...].firstIndex(of: "@") {
            text.replaceSubrange(start.upperBound..<at, with: "…")
        }
        return VisibleText.escape(text)
    }
}

public struct BrokerAddressError: Error, Equatable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }
}
