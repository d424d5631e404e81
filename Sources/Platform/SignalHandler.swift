import Foundation

/// Installs a C signal handler: the one place the program calls `sigaction`, for the
/// self-pipe that turns SIGINT and friends into main-queue events, the crash guard that
/// restores the terminal, and the watchdog. The handler may only do async-signal-safe
/// work (`write`, `tcsetattr`, `_exit`, …).
public enum SignalHandler {
    public static func install(_ number: Int32, flags: Int32 = 0,
                               _ handler: @escaping @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = flags
        sigaction(number, &action, nil)
    }

    /// Back to the default action (a crash guard re-raising, a stop).
    public static func reset(_ number: Int32) {
        signal(number, SIG_DFL)
    }
}
