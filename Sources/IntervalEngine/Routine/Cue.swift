/// A moment inside a segment: `cues = { [0] = "Go", [-10] = "10 seconds", half = fn }`.
/// Each cue gets a timer of its own when its segment runs.
struct Cue: Equatable {
    enum Moment: Equatable {
        /// Seconds after the segment starts.
        case fromStart(Double)
        /// Seconds before the segment ends (stored positive).
        case beforeEnd(Double)
        case half
    }

    enum Action: Equatable {
        case text(String)
        case function(LuaRef)
    }

    var moment: Moment
    var action: Action

    /// Seconds from the segment's start for a segment that lasts `duration` (which
    /// `extend` may have changed); nil when the cue falls outside it.
    func offset(in duration: Double) -> Double? {
        let offset: Double
        switch moment {
        case .fromStart(let seconds): offset = seconds
        case .beforeEnd(let seconds): offset = duration - seconds
        case .half: offset = duration / 2
        }
        return offset >= 0 && offset < duration ? offset : nil
    }

    var text: String? {
        if case .text(let text) = action { return text }
        return nil
    }
}
