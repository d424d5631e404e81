import Foundation

/// A stand-in for an alert program (notify-send, spd-say) on PATH: a shell script that
/// appends its arguments, one per line, to `name.log` beside it, then runs `then`.
enum FakeProgram {
    static func make(_ name: String, in directory: URL, exit status: Int = 0, then: String = "") throws {
        let script = directory.appendingPathComponent(name)
        try """
            #!/bin/sh
            for argument in "$@"; do printf '%s\\n' "$argument" >> "$0.log"; done
            \(then)
            exit \(status)
            """.write(to: script, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
    }

    /// The arguments it was given so far, waiting (at most 5 s) until there are `count`.
    static func log(_ name: String, in directory: URL, lines count: Int) -> [String] {
        let path = directory.appendingPathComponent(name + ".log").path
        var lines: [String] = []
        eventually(timeout: 5) {
            lines = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            return lines.count >= count
        }
        return lines
    }
}
