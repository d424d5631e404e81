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
        let columns = text.reduce(0) { $0 + (font[$1]?.first?.utf8.count ?? 0) + 1 }
        return max(0, columns - 1) * scale
    }

    /// `height × scale` rows; `ink` draws the strokes. Built by appending, since it runs
    /// on every change of the clock.
    static func render(_ text: String, scale: Int, ink: String) -> [String] {
        let stroke = String(repeating: ink, count: scale)
        let blank = String(repeating: " ", count: scale)
        let glyphs = text.compactMap { font[$0] }
        var rows: [String] = []
        rows.reserveCapacity(height * scale)
        for row in 0..<height {
            var line = ""
            for (position, glyph) in glyphs.enumerated() {
                if position > 0 { line += blank }
                for cell in glyph[row].utf8 {
                    line += cell == UInt8(ascii: "#") ? stroke : blank
                }
            }
            for _ in 0..<scale { rows.append(line) }
        }
        return rows
    }
}
