import Foundation

/// A run as its dead-run note names it: its process id and the time the process started
/// (in clock ticks since boot, field 22 of `/proc/PID/stat`), so that a process id used
/// again by another program is not taken for the run still going.
enum RunIdentity {
    /// This process: "PID START".
    static let current: String? = identity(of: getpid())

    /// Whether the run `identity` names is still going.
    static func isGoing(_ identity: String) -> Bool {
        let parts = identity.split(separator: " ")
        guard parts.count == 2, let pid = pid_t(parts[0]), pid > 0 else { return false }
        return Self.identity(of: pid) == identity
    }

    private static func identity(of pid: pid_t) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // After the command's closing parenthesis: field 3 (the state) onwards.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, UInt64(fields[19]) != nil else { return nil }
        return "\(pid) \(fields[19])"
    }
}
