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
    /// The current open segment is done (Enter, the page's DONE, SIGUSR1); nothing for a
    /// timed one.
    case done
    /// Count `add` more on the tally `name` (`r`: one more round).
    case tally(name: String, add: Int)
    /// Record a lap split in the current segment (`l`).
    case lap

    /// Seconds into a segment within which `back` goes to the segment before, unless a run
    /// says otherwise (`SessionOptions.backGrace`).
    public static let standardBackGrace = 2.0

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
        case .done: "done"
        case .tally: "tally"
        case .lap: "lap"
        }
    }
}
