/// A laid-out screen that remembers where its moving parts are — the band with the big
/// digits, and the two bars — so that a tick of the clock (or a flash) lays out only those
/// rows again. Most redraws are ticks, and the rest of the screen (title, info, round,
/// next, message, keys) stays as it was; `updated(to:)` always gives the lines
/// `ScreenLayout.lines` would.
public struct ScreenFrame {
    public private(set) var lines: [Line]
    public let state: DisplayState
    public let size: ScreenSize
    let glyphs: Glyphs
    let moving: ScreenLayout.MovingRows?
    /// The rows `updated(to:)` laid out again; every other row is the previous frame's.
    /// Nil for a frame laid out whole.
    public let relaid: [Int]?
    /// Whether the band's rows span the width (asked for each row of each redraw, so
    /// decided once per frame).
    private let bandSpansTheWidth: Bool

    public init(_ state: DisplayState, size: ScreenSize, glyphs: Glyphs) {
        self.init(state, size: size, glyphs: glyphs, fonts: nil)
    }

    /// A frame laid out whole, drawing the digits with `fonts` when they fit.
    init(_ state: DisplayState, size: ScreenSize, glyphs: Glyphs, fonts: DigitFonts?) {
        (lines, moving) = ScreenLayout.layout(state, size: size, glyphs: glyphs, fonts: fonts)
        self.state = state
        self.size = size
        self.glyphs = glyphs
        relaid = nil
        bandSpansTheWidth = ScreenLayout.bandStyles(state).field != nil
    }

    private init(lines: [Line], state: DisplayState, size: ScreenSize, glyphs: Glyphs,
                 moving: ScreenLayout.MovingRows, relaid: [Int]) {
        self.lines = lines
        self.state = state
        self.size = size
        self.glyphs = glyphs
        self.moving = moving
        self.relaid = relaid
        bandSpansTheWidth = ScreenLayout.bandStyles(state).field != nil
    }

    /// Whether row `row` spans the whole width (a coloured or flashing band): the display
    /// must not erase after it, which would erase its last cell.
    public func fillsTheWidth(_ row: Int) -> Bool {
        guard bandSpansTheWidth, let moving else { return false }
        return moving.band.contains(row)
    }

    /// The frame for `state` on the same screen: when only the clock, the workout totals
    /// and the flash moved, only the digits and the bars (and, when the flash starts or
    /// ends, the band's edges) are laid out again.
    public func updated(to state: DisplayState) -> ScreenFrame {
        guard var moving, onlyTheClockMoved(to: state) else {
            return ScreenFrame(state, size: size, glyphs: glyphs, fonts: moving?.fonts)
        }
        var lines = self.lines
        let width = size.columns
        if moving.fonts.current.inverted != state.flash {
            moving.fonts = DigitFonts.for(moving.fonts.current.scale, glyphs: glyphs, flash: state.flash,
                                          reusing: moving.fonts)
        }
        let font = moving.fonts.current
        lines.replaceSubrange(moving.digits, with: ScreenLayout.digits(state, font: font, width: width))
        var relaid = Array(moving.digits)
        if state.flash != self.state.flash {
            for row in moving.band where !moving.digits.contains(row) {
                lines[row] = ScreenLayout.bandEdge(state, font: font, width: width)
                relaid.append(row)
            }
        }
        lines[moving.segmentBar] = ScreenLayout.segmentBar(state, width: width, glyphs: glyphs)
        lines[moving.workoutBar] = ScreenLayout.workoutBar(state, width: width, glyphs: glyphs)
        relaid += [moving.segmentBar, moving.workoutBar]
        return ScreenFrame(lines: lines, state: state, size: size, glyphs: glyphs, moving: moving, relaid: relaid)
    }

    /// Whether `state` differs from this frame's only in what moves with the clock (and
    /// the flash), and the clock keeps its width (so the digits keep their scale and place).
    private func onlyTheClockMoved(to state: DisplayState) -> Bool {
        var probe = state
        probe.clock = self.state.clock
        probe.workoutDone = self.state.workoutDone
        probe.workoutLeft = self.state.workoutLeft
        probe.elapsed = self.state.elapsed
        probe.active = self.state.active
        probe.flash = self.state.flash
        return probe == self.state && BigDigits.units(state.clockText) == BigDigits.units(self.state.clockText)
    }
}
