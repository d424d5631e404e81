/// The characters the display draws with: block elements on a UTF-8 terminal, plain
/// ASCII elsewhere (a Linux console with `LANG=C` shows block elements as garbage).
public struct Glyphs: Equatable, Sendable {
    /// The ink of the big digits and a full bar cell.
    public var full: String
    /// A cell inked in its upper or lower half only: the big digits grow in half rows.
    public var upper: String
    public var lower: String
    /// Whether `upper` and `lower` draw true halves (ASCII only hints at them, so the
    /// digits keep to whole rows there when they can).
    public var halves: Bool
    public var empty: String
    /// Partial bar cells, one to seven eighths; empty for ASCII.
    public var eighths: [String]
    public var ellipsis: String
    public var dot: String
    /// The history calendar's shades, from no work to the most.
    public var shades: [String]

    public static let unicode = Glyphs(full: "█", upper: "▀", lower: "▄", halves: true, empty: "░",
                                       eighths: ["▏", "▎", "▍", "▌", "▋", "▊", "▉"], ellipsis: "…", dot: "·",
                                       shades: ["·", "░", "▒", "▓", "█"])
    public static let ascii = Glyphs(full: "#", upper: "\"", lower: ",", halves: false, empty: "-", eighths: [],
                                     ellipsis: ".", dot: "-", shades: [".", "-", "+", "*", "#"])

    /// Unicode when the locale's character set is UTF-8 (`LC_ALL`, else `LC_CTYPE`,
    /// else `LANG`, as the C library decides).
    public static func forLocale(_ environment: [String: String]) -> Glyphs {
        let locale = [environment["LC_ALL"], environment["LC_CTYPE"], environment["LANG"]]
            .compactMap { $0 }.first { !$0.isEmpty } ?? ""
        let lower = locale.lowercased()
        return lower.contains("utf-8") || lower.contains("utf8") ? .unicode : .ascii
    }
}
