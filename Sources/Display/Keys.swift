/// What a key press asks for (SPEC §5, the keys of the live display).
public enum KeyCommand: Equatable, Sendable {
    case togglePause, next, back, longer, shorter, quit, help
}

/// Turns bytes read from the terminal in raw mode into commands. Escape sequences
/// (arrows, function keys, Alt+key) are swallowed whole, so an arrow press never reads
/// as Esc-quit; a lone Esc is quit.
public enum KeyParser {
    public static func commands(in bytes: [UInt8]) -> [KeyCommand] {
        var commands: [KeyCommand] = []
        var position = 0
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if byte == 0x1B {
                guard position < bytes.count else {
                    commands.append(.quit)
                    break
                }
                position = endOfEscape(bytes, from: position)
                continue
            }
            if let command = command(for: byte) { commands.append(command) }
        }
        return commands
    }

    static func command(for byte: UInt8) -> KeyCommand? {
        switch Character(Unicode.Scalar(byte)) {
        case " ", "p", "P": .togglePause
        case "n", "N": .next
        case "b", "B": .back
        case "+", "=": .longer
        case "-", "_": .shorter
        case "q", "Q": .quit
        case "?", "h", "H": .help
        default: nil
        }
    }

    /// Skips a CSI (`ESC [ … final`), an SS3 (`ESC O x`) or an Alt+key (`ESC x`).
    private static func endOfEscape(_ bytes: [UInt8], from start: Int) -> Int {
        switch bytes[start] {
        case UInt8(ascii: "["):
            var position = start + 1
            while position < bytes.count, !(0x40...0x7E).contains(bytes[position]) { position += 1 }
            return min(position + 1, bytes.count)
        case UInt8(ascii: "O"):
            return min(start + 2, bytes.count)
        default:
            return start + 1
        }
    }
}
