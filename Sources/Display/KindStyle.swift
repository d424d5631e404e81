/// How each kind of segment looks: its colour and its label. The five built-in kinds
/// have colours a glance can tell apart; a routine's own kinds stay neutral.
public enum KindStyle {
    public static func sgr(_ kind: String) -> String? {
        switch kind {
        case "warmup": "33"
        case "work": "31"
        case "rest": "32"
        case "cooldown": "36"
        case "prep": "35"
        default: nil
        }
    }

    /// The background of the band behind the big digits, seen from across a room: work
    /// red, rest green and so on; nil for a routine's own kinds.
    public static func background(_ kind: String) -> String? {
        sgr(kind).map { "4" + $0.dropFirst() }
    }

    /// The digits on the band: bold, white on red and magenta, black on the light
    /// colours, each with the band's background (a span carries its whole style).
    static func onBand(_ kind: String) -> String? {
        guard let background = background(kind) else { return nil }
        let ink = ["work", "prep"].contains(kind) ? "97" : "30"
        return "1;\(ink);\(background)"
    }

    /// `WORK`, `WARM-UP`, `COOL-DOWN`, or a routine's own kind in capitals.
    public static func label(_ kind: String) -> String {
        switch kind {
        case "warmup": "WARM-UP"
        case "cooldown": "COOL-DOWN"
        default: kind.uppercased()
        }
    }

    /// Bold, in the kind's colour when it has one.
    static func strong(_ kind: String) -> String {
        sgr(kind).map { "1;" + $0 } ?? "1"
    }
}
