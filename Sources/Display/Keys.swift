import WorkoutValues

/// What a key press asks for: a command for the session (the same values a hook's
/// action or a web page's button gives), or the display's own help.
public enum KeyAction: Equatable, Sendable {
    case session(SessionCommand)
    case help
}

/// The one table of the live display's keys: what each does, and how the key line and
/// the help screen name it.
public struct KeyBinding: Sendable {
    /// The bytes that give it.
    public var keys: [UInt8]
    public var action: KeyAction
    /// On the help screen: the key's name and what it does.
    public var name: String
    public var help: String
    /// On the key line under the clock (nil: only on the help screen).
    public var short: String?

    /// Seconds `+` and `-` add to or take away from the current segment.
    public static let adjustment = 10.0

    public static let table: [KeyBinding] = [
        KeyBinding(keys: Array(" pP".utf8), action: .session(.toggle), name: "space", help: "pause / resume",
                   short: "pause"),
        KeyBinding(keys: Array("nN".utf8), action: .session(.next), name: "n", help: "next segment", short: "next"),
        KeyBinding(keys: Array("bB".utf8), action: .session(.back), name: "b",
                   help: "back to the segment's start",
                   short: "back"),
        KeyBinding(keys: Array("+=".utf8), action: .session(.add(seconds: adjustment)), name: "+ / -",
                   help: "add / take away \(Number.format(adjustment)) s", short: "\(Number.format(adjustment))s"),
        KeyBinding(keys: Array("-_".utf8), action: .session(.add(seconds: -adjustment)), name: "", help: "",
                   short: nil),
        KeyBinding(keys: [0x0D, 0x0A], action: .session(.done), name: "Enter",
                   help: "done: ends an open segment (a set)", short: "done"),
        KeyBinding(keys: Array("rR".utf8), action: .session(.tally(name: "rounds", add: 1)), name: "r / l",
                   help: "one more round / a lap split", short: nil),
        KeyBinding(keys: Array("lL".utf8), action: .session(.lap), name: "", help: "", short: nil),
        KeyBinding(keys: Array("qQ".utf8) + [0x1B], action: .session(.quit), name: "q, Esc", help: "quit",
                   short: "quit"),
        KeyBinding(keys: Array("?hH".utf8), action: .help, name: "?", help: "close this help", short: "help"),
    ]

    /// The binding of a byte, if any.
    static func binding(for byte: UInt8) -> KeyBinding? {
        table.first { $0.keys.contains(byte) }
    }
}

/// Turns bytes read from the terminal in raw mode into actions. Escape sequences
/// (arrows, function keys, Alt+key) are swallowed whole, so an arrow press never reads
/// as Esc-quit; a lone Esc is quit.
public enum KeyParser {
    public static func actions(in bytes: [UInt8]) -> [KeyAction] {
        var actions: [KeyAction] = []
        var position = 0
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if byte == 0x1B, position < bytes.count {
                position = endOfEscape(bytes, from: position)
                continue
            }
            // CR LF is one Enter, not two.
            if byte == 0x0D, position < bytes.count, bytes[position] == 0x0A { position += 1 }
            if let binding = KeyBinding.binding(for: byte) { actions.append(binding.action) }
        }
        return actions
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
