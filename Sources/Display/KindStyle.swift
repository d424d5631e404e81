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
