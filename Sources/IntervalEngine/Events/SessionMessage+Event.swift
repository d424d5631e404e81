import WorkoutValues

extension SessionMessage {
    /// What an event puts in the message line, if anything. The spoken countdown is left
    /// out: the clock already shows it, and it would wipe the cue being read.
    public static func text(of event: Event.Kind) -> (String, Kind)? {
        switch event {
        case let .cue(_, _, text?): (text, .cue)
        case let .log(text): (text, .log)
        case let .score(score): ("\(score.name): \(score.valueText)", .log)
        case let .error(text, _, _): (text, .error)
        case let .alert(.say, text, _) where !text.allSatisfy(\.isNumber): (text, .cue)
        // A hook's sound file that was not decoded when the routine loaded: why it is silent.
        case let .alert(.sound, text, .unheard?): (text, .warning)
        case let .suspend(_, missed): ("The computer slept for \(TimeText.clock(missed)); paused. Space goes on.", .warning)
        default: nil
        }
    }
}
