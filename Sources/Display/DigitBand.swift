/// The band: the big digits and the rows just above and below them. Where colour is
/// allowed (and not `--calm`), the band spans the width in the kind's colour, so a glance
/// from across a room tells work from rest; otherwise the digits are in the kind's colour
/// on the terminal's own background, as they always were. The flash (the visual bell)
/// inverts every cell of the band: ink becomes blank and blank becomes ink, which shows
/// with colour or without.
extension ScreenLayout {
    /// The clock in big digits. Centred by arithmetic: every row is `font.width` wide.
    /// Each glyph is a span of its own, so that the row diff rewrites only from the first
    /// glyph that changed (most ticks: the last digit).
    /// Numbers stand beside the clock in the same digits where they fit (`besideClock`).
    static func digits(_ state: DisplayState, font: DigitFont, width: Int) -> [Line] {
        let text = state.clockText
        let codes = font.codes(text)
        let beside = besideClock(state, font: font, width: width)
        let besideCodes = beside.map { font.codes($0.text) }
        let (ink, field) = bandStyles(state)
        let gapColumns = tallyGap * font.scale.columns
        let used = font.width(text) + beside.reduce(0) { $0 + gapColumns + font.width($1.text) }
        let left = max(0, (width - used) / 2)
        let leftSpan = Span(font.blank(left), field, columns: left)
        let gap = Span(font.gap, field, columns: font.scale.columns)
        let besideGap = Span(font.blank(gapColumns), field, columns: gapColumns)
        // A coloured or flashing band reaches the right edge too.
        let right = field == nil ? 0 : max(0, width - used - left)
        let rightSpan = Span(font.blank(right), field, columns: right)
        var lines: [Line] = []
        lines.reserveCapacity(font.scale.rows)
        for row in 0..<font.scale.rows {
            var spans: [Span] = []
            spans.reserveCapacity(2 * codes.count + 1)
            if left > 0 { spans.append(leftSpan) }
            func draw(_ codes: [UInt8], ink: String) {
                for (position, code) in codes.enumerated() {
                    if position > 0 { spans.append(gap) }
                    spans.append(Span(font.piece(code, row: row), ink, columns: font.columns(code)))
                }
            }
            draw(codes, ink: ink)
            for (number, codes) in zip(beside, besideCodes) {
                spans.append(besideGap)
                draw(codes, ink: number.ink ?? ink)
            }
            if right > 0 { spans.append(rightSpan) }
            lines.append(Line(spans))
        }
        return lines
    }

    /// A row of the band above or below the digits: the band's colour across the width,
    /// ink while flashing, blank otherwise.
    static func bandEdge(_ state: DisplayState, font: DigitFont, width: Int) -> Line {
        let (_, field) = bandStyles(state)
        guard field != nil else { return Line() }
        return Line(font.blank(width), field)
    }

    /// The style of the digits' ink, and of the rest of the band's cells (nil: the
    /// terminal's own background, and no need to reach the right edge). The paused band
    /// loses its colour: colour seen from afar means the clock runs. Flashing, the cells
    /// are inverted and every one takes the ink's style: on a coloured band the ink turns
    /// bright white, so the band flashes white with the digits in its colour.
    static func bandStyles(_ state: DisplayState) -> (ink: String, field: String?) {
        if state.band, !state.paused, let ink = KindStyle.onBand(state.kind),
           let background = KindStyle.background(state.kind) {
            return state.flash ? ("1;97;" + background, "1;97;" + background) : (ink, background)
        }
        let ink = state.paused ? "2" : KindStyle.strong(state.kind)
        return (ink, state.flash ? ink : nil)
    }
}

/// The fonts a frame draws its digits with: the one in use, and the other (plain or
/// inverted) at the same scale once it has been needed, so a flash does not draw the font
/// again each time it starts and ends.
struct DigitFonts {
    var current: DigitFont
    var other: DigitFont?

    static func `for`(_ scale: DigitScale, glyphs: Glyphs, flash: Bool, reusing old: DigitFonts?) -> DigitFonts {
        let known = [old?.current, old?.other].compactMap { $0 }
            .filter { $0.scale == scale && $0.glyphs == glyphs }
        let current = known.first { $0.inverted == flash } ?? DigitFont(scale: scale, glyphs: glyphs, inverted: flash)
        return DigitFonts(current: current, other: known.first { $0.inverted != flash })
    }
}
