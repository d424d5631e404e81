/// A moment inside a segment: `cues = { [0] = "Go", [-10] = "10 seconds", half = fn }`.
/// Each cue gets a timer of its own when its segment runs.
package struct Cue: Equatable {
    package enum Moment: Equatable {
        /// Seconds after the segment starts.
        case fromStart(Double)
        /// Seconds before the segment ends (stored positive).
        case beforeEnd(Double)
        case half
    }

    package enum Action: Equatable {
        case text(String)
        case function(RoutineReference)
    }

    package var moment: Moment
    package var action: Action

    /// Seconds from the segment's start for a segment that lasts `duration` (which
    /// `extend` may have changed); nil when the cue falls outside it.
    package func offset(in duration: Double) -> Double? {
        let offset: Double
        switch moment {
        case .fromStart(let seconds): offset = seconds
        case .beforeEnd(let seconds): offset = duration - seconds
        case .half: offset = duration / 2
        }
        return offset >= 0 && offset < duration ? offset : nil
    }

    package var text: String? {
        if case .text(let text) = action { return text }
        return nil
    }

    package init(moment: Moment, action: Action) {
        self.moment = moment
        self.action = action
    }
}
