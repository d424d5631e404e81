/// The countdown in large type: a 3×5 font for digits, 1-column colon and point, each
/// glyph followed by a 1-column gap, scaled up by whole multiples on big terminals.
enum BigDigits {
    static let height = 5

    private static let font: [Character: [String]] = [
        "0": ["###", "# #", "# #", "# #", "###"],
        "1": [" # ", "## ", " # ", " # ", "###"],
        "2": ["###", "  #", "###", "#  ", "###"],
        "3": ["###", "  #", " ##", "  #", "###"],
        "4": ["# #", "# #", "###", "  #", "  #"],
        "5": ["###", "#  ", "###", "  #", "###"],
        "6": ["###", "#  ", "###", "# #", "###"],
        "7": ["###", "  #", "  #", "  #", "  #"],
        "8": ["###", "# #", "###", "# #", "###"],
        "9": ["###", "# #", "###", "  #", "###"],
        ":": [" ", "#", " ", "#", " "],
        ".": [" ", " ", " ", " ", "#"],
        "-": ["   ", "   ", "###", "   ", "   "],
    ]

    /// Columns `text` takes at `scale`.
    static func width(_ text: String, scale: Int) -> Int {
        let columns = text.reduce(0) { $0 + (font[$1]?.first?.count ?? 0) + 1 }
        return max(0, columns - 1) * scale
    }

    /// `height × scale` rows; `ink` draws the strokes.
    static func render(_ text: String, scale: Int, ink: String) -> [String] {
        (0..<height).flatMap { row -> [String] in
            let glyphs = text.compactMap { font[$0]?[row] }
            let line = glyphs.joined(separator: " ").map { $0 == "#" ? String(repeating: ink, count: scale)
                                                                     : String(repeating: " ", count: scale) }
                .joined()
            return Array(repeating: line, count: scale)
        }
    }
}
