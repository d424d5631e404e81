/// What makes an alert heard or seen. The session decides when an alert happens and
/// records it as an event; the player only sounds it.
public protocol AlertPlayer: AnyObject {
    func bell()
    func notify(title: String, body: String, urgency: Urgency)
    func say(_ text: String)
}

/// A notification's urgency: the finish is `critical`, so it stays on screen.
public enum Urgency: String, Sendable {
    case normal, critical
}

/// Sounds nothing: dry runs and tests.
public final class SilentAlerts: AlertPlayer {
    public init() {}
    public func bell() {}
    public func notify(title: String, body: String, urgency: Urgency) {}
    public func say(_ text: String) {}
}
