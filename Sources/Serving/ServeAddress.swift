import Foundation

/// Where `run --serve` listens: `HOST:PORT`, `:PORT` or `PORT`, by default
/// 127.0.0.1:8417. Only loopback unless the user names another address: a phone can
/// reach the page only when they chose to open it to the network.
public struct ServeAddress: Equatable, Sendable, CustomStringConvertible {
    public var host: String
    /// 0 asks the system for a free port.
    public var port: UInt16

    public static let defaultHost = "127.0.0.1"
    public static let defaultPort: UInt16 = 8417
    public static let standard = ServeAddress(host: defaultHost, port: defaultPort)

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Reads `HOST:PORT`, `:PORT` or `PORT`. The host is an IPv4 address (a name would
    /// need a resolver and could mean several addresses); `localhost` is 127.0.0.1.
    public init(parsing text: String) throws(ServeError) {
        var host = ServeAddress.defaultHost
        var portText = text
        if let colon = text.lastIndex(of: ":") {
            let named = String(text[..<colon])
            portText = String(text[text.index(after: colon)...])
            if !named.isEmpty { host = named == "localhost" ? ServeAddress.defaultHost : named }
        }
        guard let port = UInt16(portText), portText.allSatisfy(\.isASCII) else {
            throw ServeError.usage("--serve \(text): the port must be a number from 0 to 65535 (HOST:PORT, :PORT or PORT)")
        }
        guard ServeAddress.isIPv4(host) else {
            throw ServeError.usage("--serve \(text): the host must be an IPv4 address such as 127.0.0.1 or 0.0.0.0")
        }
        guard ServeAddress.isUnicast(host) else {
            throw ServeError.usage("--serve \(text): \(host) is not one machine's address (multicast, broadcast or "
                                   + "reserved); give this machine's, such as 127.0.0.1 or 0.0.0.0")
        }
        self.host = host
        self.port = port
    }

    /// Whether text reads as an address, so that `--serve` followed by a routine's name
    /// takes the default address and leaves the name alone.
    /// Digits, dots and colons (or `localhost:…`): a mistyped address is still read as one,
    /// and refused with a message about addresses.
    public static func looksLikeAddress(_ text: String) -> Bool {
        let rest = text.hasPrefix("localhost:") ? text.dropFirst("localhost".count) : Substring(text)
        return !rest.isEmpty && rest.contains(where: \.isNumber) && rest.allSatisfy { "0123456789.:".contains($0) }
    }

    /// 127.0.0.0/8: reachable from this machine only.
    public var isLoopback: Bool { host.hasPrefix("127.") }

    /// 0.0.0.0: every interface; the page's URL then names the LAN address.
    public var isEverywhere: Bool { host == "0.0.0.0" }

    public var description: String { "\(host):\(port)" }

    /// Not multicast (224.0.0.0/4), reserved (240.0.0.0/4) or the broadcast address: a
    /// page can only be served from an address of one machine.
    static func isUnicast(_ text: String) -> Bool {
        var address = in_addr()
        guard inet_pton(AF_INET, text, &address) == 1 else { return false }
        return UInt32(bigEndian: address.s_addr) >> 28 < 0xE
    }

    static func isIPv4(_ text: String) -> Bool {
        var address = in_addr()
        return inet_pton(AF_INET, text, &address) == 1
    }
}

/// What went wrong when starting to serve: a usage error (exit 64) names the option;
/// anything else (the token file) is a plain failure.
public enum ServeError: Error, Equatable {
    case usage(String)
    case failure(String)

    public var message: String {
        switch self {
        case .usage(let text), .failure(let text): text
        }
    }
}
