import Foundation
import IntervalEngine

/// The one-line live status on a terminal: the current segment and its countdown,
/// redrawn in place only when the text changes. Its timer is aligned to the moment the
/// shown second changes, so a running workout wakes the process about once a second.
/// Notable events (segment starts, cues, prints, errors) scroll above it.
final class LiveStatus {
    private let style: Style
    private let countUp: Bool
    private let scheduler: any Scheduler
    weak var session: Session?
    private var tick: TimerToken?
    private var shown = ""

    init(style: Style, countUp: Bool, scheduler: any Scheduler) {
        self.style = style
        self.countUp = countUp
        self.scheduler = scheduler
    }

    func handle(_ event: Event) {
        switch event.kind {
        case .segmentEnd, .alert(.bell, _):
            break
        case .workoutEnd:
            clear()
            if let tick { scheduler.cancel(tick) }
            return
        case let .segmentStart(segment, _):
            print(style.kind(segment.kind) + " " + style.bold(segment.name) + " "
                  + TimeText.clock(segment.duration) + style.dim(PlainText.rounds(segment)))
        default:
            print(style.dim(PlainText.line(event)))
        }
        refresh()
    }

    /// A warning on standard error, without tearing the status line.
    func warn(_ text: String) {
        clear()
        Output.error(text)
        redraw()
    }

    /// Redraws and sets the timer for the next change of the shown text.
    private func refresh() {
        redraw()
        if let tick { scheduler.cancel(tick) }
        tick = nil
        guard let session, session.state == .running else { return }
        let now = scheduler.now
        let next: Double
        if countUp {
            next = session.segmentStart + session.elapsedInSegment.rounded(.down) + 1
        } else {
            next = session.segmentDeadline - (session.remainingInSegment.rounded(.up) - 1)
        }
        tick = scheduler.schedule(at: max(next, now + 0.001)) { [weak self] _ in self?.refresh() }
    }

    private func redraw() {
        guard let text = status(), text != shown else { return }
        shown = text
        Output.write("\r\u{1B}[2K" + text)
    }

    /// The status in the terminal's width: parts that do not fit are left off from the
    /// right, so the line never wraps (a wrapped line cannot be redrawn in place).
    private func status() -> String? {
        guard let session, session.state == .running || session.state == .paused else { return nil }
        let segment = session.segment
        let clock = countUp ? TimeText.clock(session.elapsedInSegment.rounded(.down))
                            : TimeText.clock(session.remainingInSegment)
        // Each part as plain text (for measuring) and as shown.
        var parts: [(plain: String, shown: String)] = []
        if session.state == .paused { parts.append(("PAUSED", style.paint("PAUSED", "7"))) }
        parts.append((segment.kind, style.kind(segment.kind)))
        parts.append((segment.name, style.bold(segment.name)))
        parts.append((clock, style.bold(clock)))
        if let round = segment.round, let rounds = segment.rounds {
            parts.append(("round \(round)/\(rounds)", "round \(round)/\(rounds)"))
        }
        let timeline = session.routine.timeline
        if segment.index < timeline.count {
            let next = "next: \(timeline.segments[segment.index].name)"
            parts.append((next, style.dim(next)))
        }
        let left = "\(TimeText.clock(session.remainingInWorkout)) left"
        parts.append((left, style.dim(left)))
        let width = Terminal.columns - 1
        var used = 0
        var shown: [String] = []
        for part in parts {
            let needed = part.plain.count + (shown.isEmpty ? 0 : 2)
            guard used + needed <= width else { break }
            used += needed
            shown.append(part.shown)
        }
        return shown.joined(separator: "  ")
    }

    private func print(_ line: String) {
        clear()
        Output.line(line)
    }

    private func clear() {
        if !shown.isEmpty { Output.write("\r\u{1B}[2K") }
        shown = ""
    }
}
