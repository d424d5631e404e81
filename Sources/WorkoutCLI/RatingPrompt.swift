import Foundation

/// How hard it was, asked in the terminal when a run of the intervals.icu calendar ends:
/// one keypress for the rate of perceived exertion (1–9, 0 for 10), then one for how the
/// athlete felt (1 strong to 5 weak, intervals.icu's scale). Any other key, or two minutes
/// without one, skips; skipping the first skips both. Asked only after a calendar run,
/// whose rating goes on to the service: an ordinary run ends as it always has.
enum RatingPrompt {
    static let patience: Int32 = 120_000

    static func ask() -> (rpe: Int?, feel: Int?) {
        guard let rpe = key("How hard was it? RPE 1-9, 0 for 10 (any other key skips): ", { byte in
            switch byte {
            case UInt8(ascii: "1")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "0"): 10
            default: nil
            }
        }) else { return (nil, nil) }
        let feel = key("How did you feel? 1 strong, 2 good, 3 normal, 4 poor, 5 weak (any other key skips): ", { byte in
            (UInt8(ascii: "1")...UInt8(ascii: "5")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
        })
        return (rpe, feel)
    }

    /// One key read without echo or Enter; what `answer` makes of it (nil: skipped).
    private static func key(_ prompt: String, _ answer: (UInt8) -> Int?) -> Int? {
        Output.write(prompt)
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
        defer { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
        var wait = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        var byte: UInt8 = 0
        var value: Int?
        if poll(&wait, 1, patience) == 1, read(STDIN_FILENO, &byte, 1) == 1 { value = answer(byte) }
        Output.line(value.map(String.init) ?? "skipped")
        return value
    }
}
