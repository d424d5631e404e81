/// Text from a routine made safe to print on a terminal. A shared routine could
/// otherwise put escape sequences in a name, a `print` or an error message and rewrite
/// the screen, set the window title or reach the clipboard of whoever runs it. Control
/// characters are written the way Lua source writes them (`\27`, or `\u{202E}` past 255),
/// a newline as `\n`; tabs stay. The bidirectional controls count as control characters:
/// U+202E and its kin reorder what follows on the screen, so that a name could show one
/// thing and be another (the "Trojan Source" trick).
public enum VisibleText {
    public static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var output = ""
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                output += "\\n"
            } else if isControl(scalar) {
                output += scalar.value > 0xFF ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : "\\\(scalar.value)"
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// C0 controls but tab, DEL, C1 controls (which some terminals obey in UTF-8 too), and
    /// the bidirectional controls.
    /// A name (a routine's, a score's, a tally's) is one line of a table or a list: no
    /// control character, and no tab either.
    public static func isPlainName(_ text: String) -> Bool {
        !text.isEmpty && !text.unicodeScalars.contains { $0 == "\t" || isControl($0) }
    }

    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value) || isBidirectional(scalar)
    }

    /// The marks U+061C, U+200E and U+200F, the embeddings and overrides U+202A…U+202E,
    /// and the isolates U+2066…U+2069.
    static func isBidirectional(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
