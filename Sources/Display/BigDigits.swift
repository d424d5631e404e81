import Synchronization
/// The countdown in large type: a 3×5 font for digits, 1-column colon and point, each
/// glyph followed by a 1-column gap. A font pixel is `DigitScale.columns` cells wide and
/// `DigitScale.halfRows` half rows tall, drawn with half blocks, so the digits grow in
/// steps of half a row and fill a large terminal.
enum BigDigits {
    /// Rows of the font.
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

    /// Font columns `text` takes, gaps included: its width at one column per pixel.
    static func units(_ text: String) -> Int {
        let columns = text.utf8.reduce(0) { $0 + (glyph($1)?.first?.utf8.count ?? 0) + 1 }
        return max(0, columns - 1)
    }
}

/// How big a font pixel is: `columns` cells wide, `halfRows` half rows tall. A cell is
/// about twice as tall as it is wide, so a pixel of 4 columns and 8 half rows is square.
public struct DigitScale: Equatable, Sendable {
    public var columns: Int
    public var halfRows: Int

    public init(columns: Int, halfRows: Int) {
        self.columns = columns
        self.halfRows = halfRows
    }

    /// Terminal rows the digits take.
    public var rows: Int { (BigDigits.height * halfRows + 1) / 2 }

    /// The largest scale for digits `units` font columns wide in `rows` × `width` cells:
    /// as tall as the rows allow, pixels between square and twice as tall as wide (the
    /// look of the 3×5 font at whole rows). It never shrinks as either room grows. With
    /// ASCII, whose half blocks are only hints, it keeps to whole rows from 2 half rows up.
    static func fitting(units: Int, rows: Int, width: Int, glyphs: Glyphs) -> DigitScale {
        let widest = max(1, width / max(1, units))
        var halfRows = max(1, min(2 * rows / BigDigits.height, 2 * widest))
        if !glyphs.halves && halfRows > 1 { halfRows -= halfRows % 2 }
        return DigitScale(columns: max(1, min(widest, halfRows)), halfRows: halfRows)
    }
}

/// The big-digit font drawn at one scale, in one set of glyphs, plain or inverted (the
/// flash): each glyph's rows are finished strings, made once per layout rather than cell
/// by cell on every tick.
final class DigitFont: Sendable {
    let scale: DigitScale
    let glyphs: Glyphs
    let inverted: Bool
    /// `pieces[code][pair]`, for the codes the font has (empty for the rest): a terminal
    /// row shows two half rows, each one of the font's 5 rows or none, so a glyph has only
    /// a few different rows however tall it is.
    private let pieces: [[String]]
    /// Columns of each code's pieces (every row of a glyph is as wide).
    private let pieceColumns: [Int]
    /// Blank stretches drawn so far, by width: the band's margins are the same widths
    /// tick after tick.
    private let blanks = Mutex<[Int: String]>([:])
    /// The pair of font rows each terminal row shows, as an index into a glyph's pieces.
    private let pairOfRow: [Int]
    /// The gap after a glyph, and a blank stretch of any width, in this font's ink.
    let gap: String
    private let blankCell: String

    init(scale: DigitScale, glyphs: Glyphs, inverted: Bool) {
        self.scale = scale
        self.glyphs = glyphs
        self.inverted = inverted
        let blank = DigitFont.cell(top: false, bottom: false, glyphs: glyphs, inverted: inverted)
        blankCell = blank
        gap = String(repeating: blank, count: scale.columns)
        var pairs: [(top: Int?, bottom: Int?)] = []
        var pairOfRow: [Int] = []
        for row in 0..<scale.rows {
            let pair = (top: DigitFont.fontRow(2 * row, scale), bottom: DigitFont.fontRow(2 * row + 1, scale))
            if pairs.last.map({ $0.top != pair.top || $0.bottom != pair.bottom }) ?? true { pairs.append(pair) }
            pairOfRow.append(pairs.count - 1)
        }
        self.pairOfRow = pairOfRow
        pieces = (0..<128).map { code in
            guard let glyph = BigDigits.glyph(UInt8(code)) else { return [] }
            return pairs.map { pair in
                DigitFont.draw(pair.top.map { glyph[$0] }, pair.bottom.map { glyph[$0] }, width: glyph[0].count,
                               scale: scale, glyphs: glyphs, inverted: inverted)
            }
        }
        pieceColumns = (0..<128).map { code in
            (BigDigits.glyph(UInt8(code))?[0].count ?? 0) * scale.columns
        }
        assert(pieces.indices.allSatisfy { code in
            pieces[code].allSatisfy { Span($0).narrowColumns == pieceColumns[code] }
        }, "a piece's width is its glyph's pixels times the scale")
    }

    /// Columns each piece of the glyph for ASCII `code` takes.
    func columns(_ code: UInt8) -> Int {
        pieceColumns[Int(code)]
    }

    /// Row `row` of the glyph for ASCII `code`.
    func piece(_ code: UInt8, row: Int) -> String {
        pieces[Int(code)][pairOfRow[row]]
    }

    /// The glyph codes of `text` the font can draw.
    func codes(_ text: String) -> [UInt8] {
        text.utf8.filter { BigDigits.glyph($0) != nil }
    }

    /// Blank cells in this font's ink (ink cells when inverted).
    func blank(_ count: Int) -> String {
        blanks.withLock { made in
            if let blank = made[count] { return blank }
            let blank = ScreenLayout.repeated(blankCell, count)
            if made.count < 64 { made[count] = blank }
            return blank
        }
    }

    /// Columns `text` takes.
    func width(_ text: String) -> Int {
        BigDigits.units(text) * scale.columns
    }

    /// The same font at another scale or in other glyphs, reusing this one when it is the same.
    func matching(_ scale: DigitScale, glyphs: Glyphs, inverted: Bool) -> DigitFont {
        scale == self.scale && glyphs == self.glyphs && inverted == self.inverted
            ? self : DigitFont(scale: scale, glyphs: glyphs, inverted: inverted)
    }

    /// The font row half row `halfRow` of the scaled font shows, if any.
    private static func fontRow(_ halfRow: Int, _ scale: DigitScale) -> Int? {
        let index = halfRow / scale.halfRows
        return index < BigDigits.height ? index : nil
    }

    /// One terminal row of a glyph `width` pixels wide: font row `top` in its upper half,
    /// `bottom` in its lower half (nil: blank).
    private static func draw(_ top: String?, _ bottom: String?, width: Int, scale: DigitScale, glyphs: Glyphs,
                             inverted: Bool) -> String {
        let upper = top.map { Array($0.utf8) }
        let lower = bottom.map { Array($0.utf8) }
        var text = ""
        for column in 0..<width {
            let cell = DigitFont.cell(top: upper?[column] == UInt8(ascii: "#"), bottom: lower?[column] == UInt8(ascii: "#"),
                                      glyphs: glyphs, inverted: inverted)
            text += ScreenLayout.repeated(cell, scale.columns)
        }
        return text
    }

    /// The character of a cell whose halves are inked as given (the other way round when inverted).
    private static func cell(top: Bool, bottom: Bool, glyphs: Glyphs, inverted: Bool) -> String {
        switch (top != inverted, bottom != inverted) {
        case (true, true): glyphs.full
        case (true, false): glyphs.upper
        case (false, true): glyphs.lower
        case (false, false): " "
        }
    }
}
