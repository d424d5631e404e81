import Display
import Foundation

/// What the terminal can do: whether standard output is one, and whether colour is
/// wanted (`NO_COLOR`, `TERM=dumb`).
enum Terminal {
    /// Read once: Foundation builds the dictionary anew on every call, and a run asks
    /// several times as it starts.
    static let environment: [String: String] = ProcessInfo.processInfo.environment

    static var isInteractive: Bool {
        isatty(STDOUT_FILENO) == 1 && environment["TERM"] != "dumb"
    }

    /// The terminal's size (80×24 when it cannot be asked).
    static var size: ScreenSize {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
            return ScreenSize(columns: 80, rows: 24)
        }
        return ScreenSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
    }

    /// Whether key presses can be read: standard input is the terminal.
    static var hasKeyboard: Bool { isatty(STDIN_FILENO) == 1 }

    static var usesColor: Bool {
        isInteractive && (environment["NO_COLOR"] ?? "").isEmpty
    }
}

/// ANSI styling that yields "" when colour is off, so callers never branch on it.
struct Style {
    let enabled: Bool

    func paint(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// Each of the five built-in kinds has its colour; other kinds stay neutral.
    func kind(_ kind: String) -> String {
        paint(kind, KindStyle.sgr(kind) ?? "1")
    }

    func dim(_ text: String) -> String { paint(text, "2") }
    func bold(_ text: String) -> String { paint(text, "1") }
}

/// Standard output gathered and written in blocks of 64 KB, for output no one reads
/// as it happens (`plan`, a dry run): a system call per line was half their time on a
/// 100,000-segment routine.
final class BlockOutput {
    private var block = ""

    func line(_ text: String) {
        block += text
        block += "\n"
        if block.utf8.count >= 1 << 16 { flush() }
    }

    func flush() {
        guard !block.isEmpty else { return }
        Output.write(block)
        block = ""
    }
}

/// Standard output and error, written straight to the file descriptors (no stdio
/// buffer), so a reader of `--json` sees each event the moment it happens.
enum Output {
    static func line(_ text: String) {
        write(text + "\n")
    }

    static func write(_ text: String) {
        send(text, to: STDOUT_FILENO)
    }

    static func write(_ bytes: [UInt8]) {
        send(bytes, to: STDOUT_FILENO)
    }

    static func error(_ text: String) {
        send(text + "\n", to: STDERR_FILENO)
    }

    private static func send(_ text: String, to descriptor: Int32) {
        send(Array(text.utf8), to: descriptor)
    }

    private static func send(_ all: [UInt8], to descriptor: Int32) {
        var bytes = all[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
