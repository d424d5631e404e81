import Display
import Foundation
import IntervalEngine
import WorkoutValues

/// The full-screen live display, a listener of the session: it turns the session's
/// snapshot into a `DisplayState`, lays it out for the terminal's size and writes only
/// the rows that changed. It wakes only when the shown text changes: a timer set for the
/// moment the clock's next value is due (each second; with `--tenths`, each tenth in the
/// last 3 s) or a flash ends, the session's events, keys, and signals (resize, stop,
/// continue). Keys go to the session as commands, through `control`. It is the player of
/// `flash` alerts, as the switches allow. What must outlive the screen — the lines `on_finish` prints,
/// the warnings and errors — it keeps for the caller to print once the screen is closed.
@MainActor
final class LiveDisplay: @preconcurrency SessionListener {
    private let snapshot: () -> SessionSnapshot
    private let control: (SessionCommand) -> Void
    private let scheduler: any Scheduler
    private let countUp: Bool
    private let color: Bool
    /// The kind's colour as a band behind the digits (not with `--calm` or without colour).
    private let band: Bool
    private let glyphs: Glyphs
    private let screen = TerminalScreen()
    private var keys: KeyReader?
    private var size = Terminal.size
    /// What is on screen now, as laid out (nil: the screen is blank, draw it all).
    private var frame: ScreenFrame?
    private var tick: TimerToken?
    /// When the pending tick is for (workout seconds since the start).
    private var tickFor = 0.0
    private var drawQueued = false
    /// A warning of the display's own (from the alert programs), shown until the
    /// session has a newer message: the sequence of the session's message it came after.
    private var warning: (message: DisplayMessage, after: Int)?
    private var help = false
    /// `run --serve`'s URL and QR code, shown in the first segment until the next one
    /// starts or `?` is pressed.
    var invitation: Invitation?
    /// A class's participants, read at each redraw (`run --mqtt`).
    var participants: (() -> ClassBand)?
    private var inviting = true
    private var running = true
    /// Until when (workout seconds since the start) the band shows the flash.
    private var flashUntil = -Double.infinity
    /// Error messages of the run, printed again once the normal screen is back.
    private(set) var errors: [String] = []
    /// Warnings shown during the run (already prefixed `workout: `), printed again too.
    private(set) var warnings: [String] = []
    /// What the routine printed in `on_finish`: the display closes right after, so these
    /// lines go below the summary on the normal screen (escaped, as on screen).
    private(set) var finishLines: [String] = []

    /// How long a flash lasts, in workout seconds: two tenths, long enough to catch the
    /// eye; with `--tenths` its end in a segment's last seconds falls on a tick of the
    /// clock and costs no wake-up of its own.
    static let flashLength = 0.2

    init(snapshot: @escaping () -> SessionSnapshot, control: @escaping (SessionCommand) -> Void,
         scheduler: any Scheduler, countUp: Bool, color: Bool, band: Bool, glyphs: Glyphs) {
        self.snapshot = snapshot
        self.control = control
        self.scheduler = scheduler
        self.countUp = countUp
        self.color = color
        self.band = band && color
        self.glyphs = glyphs
    }

    func open() {
        screen.enter()
        if Terminal.hasKeyboard {
            keys = KeyReader { [weak self] action in self?.perform(action) }
        }
    }

    /// Gives the terminal back (idempotent; every exit path calls it).
    func close() {
        cancelTick()
        keys?.stop()
        keys = nil
        screen.leave()
    }

    func receive(_ event: Event) {
        switch event.kind {
        case .segmentStart(let segment, _):
            warning = nil
            if segment.index > 1 { inviting = false }
        case .pause:
            // A pause ends a flash at once: the screen then stands still.
            flashUntil = -.infinity
        case let .error(text, hook, _):
            errors.append("\(text) (in \(hook))")
        case .alert(.flash, _, let detail):
            guard detail != .unheard else { return }
            flashUntil = (event.fire?.at ?? event.t) + LiveDisplay.flashLength
        case let .log(text) where event.state == .finished:
            finishLines.append(VisibleText.escape(text))
        case .workoutEnd:
            running = false
            cancelTick()
            return
        case .workoutStart, .alert(.bell, _, _), .alert(.notify, _, _), .alert(.sound, _, _):
            // Nothing on screen changes (the first segment's start draws it all); a sound
            // is heard, not shown.
            return
        case .cue where SessionMessage.text(of: event.kind) == nil,
             .alert(.say, _, _) where SessionMessage.text(of: event.kind) == nil:
            // A function cue, the spoken countdown: no message to show.
            return
        default:
            break
        }
        queueDraw()
    }

    /// A warning from the alert programs, shown in the message row.
    func warn(_ text: String) {
        warnings.append(VisibleText.escape(text))
        warning = (DisplayMessage(text.visible, .warning), snapshot().message?.sequence ?? 0)
        queueDraw()
    }

    func perform(_ action: KeyAction) {
        switch action {
        case .session(let command):
            help = false
            control(command)
        case .help where inviting && invitation != nil:
            inviting = false
        case .help:
            help.toggle()
        }
        draw()
    }

    /// SIGWINCH: lay out again for the new size, from a clear screen.
    func resized() {
        size = Terminal.size
        repaint()
    }

    /// SIGTSTP: the caller has paused the session; give the terminal back before the
    /// process stops.
    func suspend() {
        cancelTick()
        screen.leave()
        Output.line("workout: paused; type fg to go on")
    }

    /// SIGCONT (or the return from our own stop): the display's modes again, redrawn.
    func resume() {
        screen.enter()
        size = Terminal.size
        repaint()
    }

    private func repaint() {
        guard screen.active else { return }
        frame = nil
        Output.write("\u{1B}[H\u{1B}[2J")
        draw()
    }

    /// Several events in one boundary make one redraw, on the next turn of the loop.
    private func queueDraw() {
        guard !drawQueued else { return }
        drawQueued = true
        DispatchQueue.main.async { [self] in
            drawQueued = false
            draw()
        }
    }

    /// Lays out the screen (on a tick, only the rows that move with the clock) and writes
    /// each row that differs from what is on screen, from its first change on.
    private func draw() {
        guard screen.active, running else { return }
        let now = snapshot()
        guard now.current != nil else { return }
        var message = now.message.map(DisplayMessage.init)
        if let warning, warning.after == (now.message?.sequence ?? 0) { message = warning.message }
        var state = DisplayState(now, countUp: countUp, message: message, help: help, band: band,
                                 flash: now.t < flashUntil - 1e-9, invitation: inviting || help ? invitation : nil)
        state.participants = participants?()
        let shown = frame
        let next: ScreenFrame
        if let shown, shown.size == size {
            next = shown.updated(to: state)
        } else {
            next = ScreenFrame(state, size: size, glyphs: glyphs)
        }
        var output: [UInt8] = []
        // After a tick only the re-laid rows can differ from the screen.
        let rows = (shown == nil ? nil : next.relaid) ?? Array(0..<size.rows)
        // The lines alone: binding the whole frame in the loop copied it for every row.
        let shownLines = shown?.lines
        for row in rows {
            let line = row < next.lines.count ? next.lines[row] : Line()
            var change: (span: Int, column: Int, end: Int?) = (0, 0, nil)
            if let shownLines {
                guard let changed = line.change(from: row < shownLines.count ? shownLines[row] : Line()) else { continue }
                change = changed
            }
            LiveDisplay.moveCursor(row: row + 1, column: change.column + 1, into: &output)
            line.render(into: &output, color: color, from: change.span, to: change.end)
            // The rest of the row is on screen already; a row as wide as the screen (the
            // band) is all written, and erasing after it would erase its last cell, where
            // the cursor waits.
            if change.end == nil && !next.fillsTheWidth(row) { output.append(contentsOf: "\u{1B}[K".utf8) }
        }
        frame = next
        if !output.isEmpty { Output.write(output) }
        scheduleTick(now)
    }

    /// `ESC [ row ; column H`, the digits written straight into the bytes (an interpolated
    /// string for each changed row of each redraw cost more than the row's diff).
    static func moveCursor(row: Int, column: Int, into bytes: inout [UInt8]) {
        bytes.append(0x1B)
        bytes.append(UInt8(ascii: "["))
        appendDigits(row, into: &bytes)
        bytes.append(UInt8(ascii: ";"))
        appendDigits(column, into: &bytes)
        bytes.append(UInt8(ascii: "H"))
    }

    private static func appendDigits(_ number: Int, into bytes: inout [UInt8]) {
        if number >= 10 { appendDigits(number / 10, into: &bytes) }
        bytes.append(UInt8(ascii: "0") + UInt8(number % 10))
    }

    /// The next redraw, when the shown clock next changes or the flash ends, whichever
    /// comes first (measured from the snapshot's moment, so it is never early).
    /// A redraw for an event between ticks keeps the pending tick when it is still due then.
    private func scheduleTick(_ snapshot: SessionSnapshot) {
        let flashEnd = flashUntil > snapshot.t ? flashUntil : nil
        let next = [snapshot.nextChange, flashEnd].compactMap { $0 }.min()
        if tick != nil, let next, next == tickFor { return }
        cancelTick()
        guard let next else { return }
        tickFor = next
        tick = scheduler.schedule(at: scheduler.now + max(0, next - snapshot.t)) { [weak self] _ in
            self?.tick = nil
            self?.draw()
        }
    }

    private func cancelTick() {
        if let tick { scheduler.cancel(tick) }
        tick = nil
    }
}
