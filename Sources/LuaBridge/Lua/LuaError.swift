import IntervalEngine

/// An error raised by Lua code: the session's `HookError`, made from what the message
/// handler produced.
typealias LuaError = HookError

extension HookError {
    /// Splits what the message handler `workout_msgh` produced.
    init(tracebackMessage text: String) {
        if let range = text.range(of: "\nstack traceback:\n") {
            self.init(message: String(text[..<range.lowerBound]), traceback: String(text[range.lowerBound...].dropFirst()))
        } else {
            self.init(message: text, traceback: nil)
        }
    }
}
