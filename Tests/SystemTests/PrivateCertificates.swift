import Foundation

/// A certificate authority of the test's own, made with Debian's `openssl` in a scratch
/// directory, and a server certificate it signed for 127.0.0.1 and localhost: what a
/// private broker's TLS listener shows, trusted only by a client given `caFile`. Nothing
/// on the system trusts it, so a client left to the system's CA store refuses it, as it
/// would a stranger's broker.
struct PrivateCertificates {
    let caFile: String
    let certificateFile: String
    let keyFile: String

    /// What the server's certificate is for: this machine's loopback.
    static let loopbackNames = "IP:127.0.0.1, DNS:localhost"

    init(in directory: URL, names: String = loopbackNames) throws {
        let openssl = try PrivateBroker.program("openssl")
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        caFile = path("ca.crt")
        certificateFile = path("server.crt")
        keyFile = path("server.key")
        let extensions = path("server.ext")
        try "subjectAltName = \(names)\n".write(toFile: extensions, atomically: false, encoding: .utf8)
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        let steps: [[String]] = [
            ["req", "-x509"] + key + ["-keyout", path("ca.key"), "-out", caFile, "-days", "2",
                                      "-subj", "/CN=workout test CA \(UUID().uuidString.prefix(8))",
                                      "-addext", "basicConstraints=critical,CA:TRUE",
                                      "-addext", "keyUsage=critical,keyCertSign,cRLSign"],
            ["req"] + key + ["-keyout", keyFile, "-out", path("server.csr"), "-subj", "/CN=localhost"],
            ["x509", "-req", "-in", path("server.csr"), "-CA", caFile, "-CAkey", path("ca.key"), "-CAcreateserial",
             "-out", certificateFile, "-days", "2", "-extfile", extensions],
        ]
        for step in steps {
            let made = try spawn(openssl, step, printing: false)
            guard made.status == 0 else {
                throw PrivateSoundServer.Failure("openssl \(step.prefix(2).joined(separator: " ")) exited \(made.status)")
            }
        }
    }
}
