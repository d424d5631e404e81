/// Text from a routine made safe to print on a terminal. A shared routine could
/// otherwise put escape sequences in a name, a `print` or an error message and rewrite
/// the screen, set the window title or reach the clipboard of whoever runs it. Control
/// characters are written the way Lua source writes them (`\27`), a newline as `\n`;
/// tabs stay.
public enum VisibleText {
    public static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var output = ""
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                output += "\\n"
            } else if isControl(scalar) {
                output += "\\\(scalar.value)"
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// C0 controls but tab, DEL, and C1 controls (which some terminals obey in UTF-8 too).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
    }
}
