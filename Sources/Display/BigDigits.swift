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

    /// The font indexed by ASCII code: looking a `Character` up in a dictionary hashes
    /// it, which was a visible part of every tick.
    private static let table: [[String]?] = (0..<128).map { code in font[Character(Unicode.Scalar(UInt8(code)))] }

    static func glyph(_ code: UInt8) -> [String]? {
        code < 128 ? table[Int(code)] : nil
    }

    /// Columns `text` takes at `scale`.
    static func width(_ text: String, scale: Int) -> Int {
        let columns = text.utf8.reduce(0) { $0 + (glyph($1)?.first?.utf8.count ?? 0) + 1 }
        return max(0, columns - 1) * scale
    }

    /// The font's rows for `text`, one array of glyph pieces per row of the font (each
    /// row is shown `scale` times): the pieces come drawn in advance (`InkedFont`), so a
    /// tick only picks them.
    static func rows(_ text: String, scale: Int, ink: String) -> [[String]] {
        let font = InkedFont.for(ink)
        let codes = text.utf8.filter { glyph($0) != nil }
        return (0..<height).map { row in codes.map { font.piece($0, row: row, scale: scale) } }
    }
}

/// The big-digit font drawn in one ink at scales 1 to 3: each glyph's row is a finished
/// string, made once per run rather than cell by cell on every tick.
struct InkedFont: Sendable {
    let ink: String
    /// `pieces[scale - 1][code][row]`.
    private let pieces: [[[String]]]

    static let maximumScale = 3

    init(ink: String) {
        self.ink = ink
        pieces = (1...InkedFont.maximumScale).map { scale in
            (0..<128).map { code in
                (BigDigits.glyph(UInt8(code)) ?? []).map { InkedFont.draw($0, ink: ink, scale: scale) }
            }
        }
    }

    /// Row `row` of the glyph for ASCII `code`, at `scale` (drawn on the spot above the
    /// largest scale the layout uses).
    func piece(_ code: UInt8, row: Int, scale: Int) -> String {
        guard (1...InkedFont.maximumScale).contains(scale) else {
            return InkedFont.draw(BigDigits.glyph(code)?[row] ?? "", ink: ink, scale: scale)
        }
        return pieces[scale - 1][Int(code)][row]
    }

    /// One font row (`"# #"`) in ink, each cell `scale` columns wide.
    private static func draw(_ row: String, ink: String, scale: Int) -> String {
        row.map { String(repeating: $0 == "#" ? ink : " ", count: scale) }.joined()
    }

    private static let block = InkedFont(ink: Glyphs.unicode.full)
    private static let hash = InkedFont(ink: Glyphs.ascii.full)

    /// The font for the display's ink, made once; any other ink is drawn on demand.
    static func `for`(_ ink: String) -> InkedFont {
        ink == block.ink ? block : ink == hash.ink ? hash : InkedFont(ink: ink)
    }
}
