/// What makes an alert heard or seen. The session decides when an alert happens and
/// publishes it as an event; `AlertListener` hands the events the switches allow to a
/// player, which only sounds them.
public protocol AlertPlayer: AnyObject {
    func bell()
    func notify(title: String, body: String, urgency: Urgency)
    func say(_ text: String)
}

/// A notification's urgency: the finish is `critical`, so it stays on screen.
public enum Urgency: String, Sendable {
    case normal, critical
}

/// What a `notify` alert sends: the event's `text` is `title: body`, and the player
/// needs them apart.
public struct Notification: Sendable, Equatable {
    public var title: String
    public var body: String
    public var urgency: Urgency

    public init(title: String, body: String, urgency: Urgency = .normal) {
        self.title = title
        self.body = body
        self.urgency = urgency
    }
}
