/// What gives a terminal back after the live display: attributes reset, cursor shown,
/// the normal screen again. Every way out uses it — the display closing, the crash
/// guard, and the watchdog that ends a runaway library call — so none of them can
/// leave a half-restored terminal.
public enum TerminalReset {
    public static let sequence = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
}
