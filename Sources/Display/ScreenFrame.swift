/// A laid-out screen that remembers where its moving parts are — the big digits and the
/// two bars — so that a tick of the clock lays out only those rows again. Most redraws
/// are ticks, and the rest of the screen (title, round, next, message, keys) stays as
/// it was; `updated(to:)` always gives the lines `ScreenLayout.lines` would.
public struct ScreenFrame: Sendable {
    public private(set) var lines: [Line]
    public let state: DisplayState
    public let size: ScreenSize
    let glyphs: Glyphs
    let moving: ScreenLayout.MovingRows?
    /// The rows `updated(to:)` laid out again; every other row is the previous frame's.
    /// Nil for a frame laid out whole.
    public let relaid: [Int]?

    public init(_ state: DisplayState, size: ScreenSize, glyphs: Glyphs) {
        (lines, moving) = ScreenLayout.layout(state, size: size, glyphs: glyphs)
        self.state = state
        self.size = size
        self.glyphs = glyphs
        relaid = nil
    }

    private init(lines: [Line], state: DisplayState, size: ScreenSize, glyphs: Glyphs,
                 moving: ScreenLayout.MovingRows) {
        self.lines = lines
        self.state = state
        self.size = size
        self.glyphs = glyphs
        self.moving = moving
        relaid = Array(moving.digits) + [moving.segmentBar, moving.workoutBar]
    }

    /// The frame for `state` on the same screen: when only the clock and the workout
    /// totals moved, only the digits and the bars are laid out again.
    public func updated(to state: DisplayState) -> ScreenFrame {
        guard let moving, onlyTheClockMoved(to: state) else {
            return ScreenFrame(state, size: size, glyphs: glyphs)
        }
        var lines = self.lines
        let width = size.columns
        let digits = ScreenLayout.digits(state, scale: moving.scale, width: width, glyphs: glyphs)
        lines.replaceSubrange(moving.digits, with: digits)
        lines[moving.segmentBar] = ScreenLayout.segmentBar(state, width: width, glyphs: glyphs)
        lines[moving.workoutBar] = ScreenLayout.workoutBar(state, width: width, glyphs: glyphs)
        return ScreenFrame(lines: lines, state: state, size: size, glyphs: glyphs, moving: moving)
    }

    /// Whether `state` differs from this frame's only in what moves with the clock, and
    /// the clock keeps its width (so the digits keep their scale and place).
    private func onlyTheClockMoved(to state: DisplayState) -> Bool {
        var probe = state
        probe.clock = self.state.clock
        probe.workoutDone = self.state.workoutDone
        probe.workoutLeft = self.state.workoutLeft
        return probe == self.state
            && BigDigits.width(state.clockText, scale: 1) == BigDigits.width(self.state.clockText, scale: 1)
    }
}
