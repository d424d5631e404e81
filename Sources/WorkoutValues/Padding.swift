/// Filling text to a width: numbers with leading zeros (`07`, `2026`), columns of a
/// table with spaces. The one place for both, so every table and time lines up alike.
public enum Padding {
    /// `7` → `07` (width 2).
    public static func zeros(_ value: Int, _ width: Int = 2) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Text filled with spaces to `width` characters, on the right (or the left, to
    /// right-align numbers). Longer text is left as it is.
    public static func column(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }
}
