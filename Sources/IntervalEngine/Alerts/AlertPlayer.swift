/// What makes an alert heard or seen. The session decides when an alert happens and
/// records it as an event; the player only sounds it.
public protocol AlertPlayer: AnyObject {
    func bell()
    func notify(title: String, body: String)
    func say(_ text: String)
}

/// Sounds nothing: dry runs and tests.
public final class SilentAlerts: AlertPlayer {
    public init() {}
    public func bell() {}
    public func notify(title: String, body: String) {}
    public func say(_ text: String) {}
}
