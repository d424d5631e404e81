import WorkoutValues

/// Events as one plain line each, for output that is not a terminal: a log a person
/// can read and a script can grep.
public enum PlainText {
    /// Routine-made text in it has its control characters escaped (`VisibleText`). Nil
    /// for a sound: it is heard, and a line per pip would only bury the rest; but a hook's
    /// sound file that cannot be heard (`AlertDetail.unheard`) says why.
    public static func line(_ event: Event) -> String? {
        if case .alert(.sound, _, let detail) = event.kind, detail != .unheard { return nil }
        return TimeText.stamp(event.t) + "  " + VisibleText.escape(text(event.kind))
    }

    static func text(_ kind: Event.Kind) -> String {
        switch kind {
        case let .workoutStart(name, segments, duration, speed, _):
            let faster = speed == 1 ? "" : " at \(Number.format(speed))x"
            guard let segments, let duration else { return "start \(name): open-ended\(faster)" }
            return "start \(name): \(segments) segments, \(TimeText.clock(duration))\(faster)"
        case let .segmentStart(segment, _):
            let length = segment.open.map { "open" + ($0.cap.map { ", cap \(TimeText.clock($0))" } ?? "") }
                ?? TimeText.clock(segment.duration)
            return "\(segment.index)/\(segment.count.map(String.init) ?? "…") \(segment.kind) \"\(segment.name)\" \(length)"
                + rounds(segment)
        case let .cue(index, offset, text):
            return "cue \(index) at \(TimeText.clock(offset))" + (text.map { ": \($0)" } ?? "")
        case let .segmentEnd(index, name, _, skipped, by):
            let cause = by == .cap ? " at its cap" : ""
            return "\(skipped ? "skipped" : "done") \(index) \"\(name)\"\(cause)"
        case let .alert(type, text, _):
            return type.rawValue + (text.isEmpty ? "" : ": \(text)")
        case let .log(text):
            return "print: \(text)"
        case let .score(score):
            return "score: \(score.name) \(score.valueText)"
        case let .tally(name, value, _):
            return "tally: \(name) \(value)"
        case let .lap(index, number, split):
            return "lap \(number) in \(index): \(TimeText.clock(split))"
        case let .pause(index, remaining):
            return "paused in \(index), \(TimeText.clock(remaining)) left"
        case let .resume(index, remaining):
            return "resumed in \(index), \(TimeText.clock(remaining)) left"
        case let .suspend(index, missed):
            return "the computer slept for \(TimeText.clock(missed)) in \(index); paused"
        case let .error(message, hook, _):
            return "error in \(hook): \(message)"
        case let .sample(sample):
            return "sample \(sample.name): " + SensorText.values(sample.values)
        case let .erg(watts):
            return "erg: \(watts) W"
        case let .treadmill(kmh):
            return "treadmill: \(Number.format(Number.rounded(kmh, places: 2))) km/h"
        case let .workoutEnd(summary):
            return "\(summary.completed ? "finished" : "stopped") after \(TimeText.clock(summary.elapsed)), \(summary.segmentsDone) segments done"
        }
    }

    /// ` · round 2/8 · Block A`
    public static func rounds(_ segment: SegmentSummary) -> String {
        var text = ""
        if let round = segment.round, let rounds = segment.rounds { text += " · round \(round)/\(rounds)" }
        if let block = segment.block { text += " · \(block)" }
        return text
    }
}
