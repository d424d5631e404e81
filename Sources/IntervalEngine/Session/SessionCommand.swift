/// What a controller asks of a running workout: a key, a hook's action, a button on a
/// web page. Every one of them goes through `Session.apply`, so they all behave alike.
public enum SessionCommand: Equatable, Sendable {
    case pause, resume, toggle
    /// End the current segment now, counted as skipped.
    case next
    /// Restart the segment, or go to the previous one within its first seconds.
    case back
    /// Add seconds to the current segment (negative takes away; taking all that is left
    /// ends the segment, counted as skipped, as `next` does).
    case add(seconds: Double)
    /// End the workout now, not completed.
    case quit

    /// The name a web request or a script uses: `pause`, `add`.
    public var name: String {
        switch self {
        case .pause: "pause"
        case .resume: "resume"
        case .toggle: "toggle"
        case .next: "next"
        case .back: "back"
        case .add: "add"
        case .quit: "quit"
        }
    }
}

extension Session {
    /// Applies a command. Called from a hook, `next` and `pause` wait until the hook's
    /// boundary is done; commands that make no sense now (pause while paused, anything
    /// once finished) do nothing.
    public func apply(_ command: SessionCommand) {
        switch command {
        case .pause: pause()
        case .resume: resume()
        case .toggle: state == .paused ? resume() : pause()
        case .next: skip()
        case .back: back()
        case .add(let seconds): extend(by: seconds)
        case .quit: stop()
        }
    }
}
