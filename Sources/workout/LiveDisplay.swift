import Display
import Foundation
import IntervalEngine

/// The full-screen live display (SPEC §5): it turns the session's state into a
/// `DisplayState`, lays it out for the terminal's size and writes only the rows that
/// changed. It wakes only when the shown text changes: a timer set for the moment the
/// clock's next value is due (each second, each tenth in the last 3 s), the session's
/// events, keys, and signals (resize, stop, continue).
final class LiveDisplay {
    private let session: Session
    private let scheduler: any Scheduler
    private let countUp: Bool
    private let color: Bool
    private let glyphs: Glyphs
    private let screen = TerminalScreen()
    private var keys: KeyReader?
    private var size = Terminal.size
    /// What is on screen now, as laid out (nil: the screen is blank, draw it all).
    private var frame: ScreenFrame?
    private var tick: TimerToken?
    private var drawQueued = false
    private var message: DisplayMessage?
    private var help = false
    /// Error messages of the run, printed again once the normal screen is back.
    private(set) var errors: [String] = []

    init(session: Session, scheduler: any Scheduler, countUp: Bool, color: Bool, glyphs: Glyphs) {
        self.session = session
        self.scheduler = scheduler
        self.countUp = countUp
        self.color = color
        self.glyphs = glyphs
    }

    func open() {
        screen.enter()
        if Terminal.hasKeyboard {
            keys = KeyReader { [weak self] command in self?.perform(command) }
        }
    }

    /// Gives the terminal back (idempotent; every exit path calls it).
    func close() {
        cancelTick()
        keys?.stop()
        keys = nil
        screen.leave()
    }

    func handle(_ event: Event) {
        switch event.kind {
        case .segmentStart:
            message = nil
        case let .cue(_, _, text?):
            message = DisplayMessage(text, .cue)
        case let .log(text):
            message = DisplayMessage(text, .log)
        case let .score(score):
            message = DisplayMessage("\(score.name): \(score.valueText)", .log)
        case let .error(text, hook, _):
            errors.append("\(text) (in \(hook))")
            message = DisplayMessage(text, .error)
        // Spoken text is shown (SPEC §6: where there is no synthesizer, it is seen), but
        // not the spoken countdown: the big digits already show it, and it would wipe the
        // cue the user is reading.
        case let .alert(.say, text) where !text.allSatisfy(\.isNumber):
            message = DisplayMessage(text, .cue)
        case let .suspend(_, missed):
            message = DisplayMessage("The computer slept for \(TimeText.clock(missed)); paused. Space goes on.", .warning)
        case .workoutEnd:
            cancelTick()
            return
        default:
            break
        }
        queueDraw()
    }

    /// A warning from the alert programs, shown in the message row.
    func warn(_ text: String) {
        message = DisplayMessage(text, .warning)
        queueDraw()
    }

    func perform(_ command: KeyCommand) {
        switch command {
        case .togglePause: session.togglePause()
        case .next: session.skip()
        case .back: session.back()
        case .longer: session.extend(by: LiveDisplay.adjustment)
        case .shorter: session.extend(by: -LiveDisplay.adjustment)
        case .quit: session.stop()
        case .help: help.toggle()
        }
        if command != .help { help = false }
        draw()
    }

    /// Seconds `+` and `-` add to or take from the current segment.
    static let adjustment = 10.0

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
        let display = MainThreadBox(self)
        DispatchQueue.main.async {
            display.value.drawQueued = false
            display.value.draw()
        }
    }

    /// Lays out the screen (on a tick, only the rows that move with the clock) and writes
    /// each row that differs from what is on screen, from its first change on.
    private func draw() {
        guard screen.active, session.state == .running || session.state == .paused else { return }
        let state = DisplayState(session: session, countUp: countUp, message: message, help: help)
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
        for row in rows {
            let line = row < next.lines.count ? next.lines[row] : Line()
            var change = (span: 0, column: 0)
            if let shown {
                guard let changed = line.change(from: row < shown.lines.count ? shown.lines[row] : Line()) else { continue }
                change = changed
            }
            output.append(contentsOf: "\u{1B}[\(row + 1);\(change.column + 1)H".utf8)
            line.render(into: &output, color: color, from: change.span)
            output.append(contentsOf: "\u{1B}[K".utf8)
        }
        frame = next
        if !output.isEmpty { Output.write(output) }
        scheduleTick()
    }

    private func scheduleTick() {
        cancelTick()
        guard let next = session.nextDisplayChange else { return }
        tick = scheduler.schedule(at: next) { [weak self] _ in self?.draw() }
    }

    private func cancelTick() {
        if let tick { scheduler.cancel(tick) }
        tick = nil
    }
}
