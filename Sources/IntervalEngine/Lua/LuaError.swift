/// An error raised by Lua code: its message names `file:line`, and runtime errors
/// carry Lua's traceback separately so that one-line output stays one line.
struct LuaError: Error, Equatable {
    var message: String
    var traceback: String?
    /// The user stopped the call (Ctrl-C): not the routine's fault.
    var interrupted = false

    init(message: String, traceback: String?) {
        self.message = message
        self.traceback = traceback
    }

    /// Splits what the message handler `workout_msgh` produced.
    init(tracebackMessage text: String) {
        if let range = text.range(of: "\nstack traceback:\n") {
            message = String(text[..<range.lowerBound])
            traceback = String(text[range.lowerBound...].dropFirst())
        } else {
            message = text
            traceback = nil
        }
    }
}
