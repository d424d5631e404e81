import Foundation

/// The process group workout runs in, as job control sees it.
enum ProcessGroup {
    /// Whether the group is orphaned (POSIX): no member has a parent in another group of
    /// the same session, so no shell is there to continue it (`fg`) once it stops. The
    /// kernel then discards a stop by Ctrl-Z. Read from /proc (Linux).
    static var isOrphaned: Bool {
        let group = getpgrp()
        let session = getsid(0)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard pid_t(entry) != nil, let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // After "pid (comm)": state, ppid, pgrp, session, …
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 3, pid_t(fields[2]) == group, let parent = pid_t(fields[1]) else { continue }
            if getpgid(parent) != group && getsid(parent) == session { return false }
        }
        return true
    }
}
