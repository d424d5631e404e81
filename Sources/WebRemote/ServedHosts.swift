import Foundation

/// The names a request's Host may give: the served address, `localhost`, the machine's own
/// addresses and its host name (with `.local`, as mDNS gives it). Any other name is a page
/// of another site whose DNS name was pointed at this machine (DNS rebinding), and is
/// refused: only names the machine's owner controls reach the workout.
struct ServedHosts: Sendable {
    let names: Set<String>

    init(served: String) {
        var names: Set<String> = [served.lowercased(), "localhost", "127.0.0.1", "::1"]
        names.formUnion(ServedHosts.interfaceAddresses())
        var buffer = [CChar](repeating: 0, count: 256)
        if gethostname(&buffer, buffer.count) == 0 {
            let host = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).lowercased()
            if !host.isEmpty { names.formUnion([host, host + ".local"]) }
        }
        self.names = names
    }

    /// Whether a Host header (`name`, `name:port`, `[v6]:port`) names this machine.
    func accepts(_ header: String) -> Bool {
        var host = Substring(header.lowercased())
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            host = host[..<colon]
        }
        if host.hasSuffix(".") { host = host.dropLast() }
        return names.contains(String(host))
    }

    /// Every address of every interface, IPv4 and IPv6, as text.
    static func interfaceAddresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var found: [String] = []
        var entry: UnsafeMutablePointer<ifaddrs>? = first
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            guard let address = current.pointee.ifa_addr else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard getnameinfo(address, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            var text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // A link-local IPv6 address carries its interface (`fe80::1%eth0`); a Host does not.
            if let percent = text.firstIndex(of: "%") { text = String(text[..<percent]) }
            found.append(text.lowercased())
        }
        return found
    }
}
