import Display
import Foundation
import IntervalEngine
import WorkoutValues

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

extension String {
    /// The text as it may be shown on a terminal: control characters escaped, so a file
    /// name, a `--set` value or a line of the history file cannot move the cursor, clear
    /// the screen or set the window title (`VisibleText`, the one escaping function).
    var visible: String { VisibleText.escape(self) }
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
