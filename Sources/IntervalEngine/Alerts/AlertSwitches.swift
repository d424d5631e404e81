import Foundation

/// Which alerts sound: the one place where the command line's flags and the machine's
/// environment decide it. The session reads it to know which automatic alerts to give
/// (a bell at each boundary, a notification per segment, the spoken countdown); the
/// alert player reads it to know which alert events, the routine's own `bell()`,
/// `notify()` and `say()` included, it makes heard. An alert that is off is still an
/// event: `--json` and the display see it.
public struct AlertSwitches: Sendable, Equatable {
    /// The terminal bell (on unless `--no-bell`).
    public var bell: Bool
    /// Desktop notifications through notify-send.
    public var notify: Bool
    /// Speech (`--voice`).
    public var voice: Bool

    public init(bell: Bool = true, notify: Bool = false, voice: Bool = false) {
        self.bell = bell
        self.notify = notify
        self.voice = voice
    }

    /// Nothing sounds: a dry run's switches (the bell events are still reported).
    public static let silent = AlertSwitches(bell: false, notify: false, voice: false)

    /// The switches for a run: `--no-bell`, `--notify`/`--no-notify` (nil: on where a
    /// session bus and notify-send exist), `--voice`. A dry run keeps the bell as an event
    /// only and never notifies or speaks.
    public static func decide(noBell: Bool, notify: Bool?, voice: Bool, dryRun: Bool,
                              environment: [String: String] = ProcessInfo.processInfo.environment) -> AlertSwitches {
        let notifications = notify ?? notificationsAvailable(environment: environment)
        return AlertSwitches(bell: !noBell, notify: notifications && !dryRun, voice: voice && !dryRun)
    }

    /// Notifications default to on where a desktop session bus is and `notify-send` exists.
    public static func notificationsAvailable(environment: [String: String]) -> Bool {
        guard let bus = environment["DBUS_SESSION_BUS_ADDRESS"], !bus.isEmpty else { return false }
        return ExecutableSearch.find("notify-send", environment: environment) != nil
    }

    /// Whether the countdown's seconds need timers of their own.
    var countdown: Bool { bell || voice }
}

/// Makes alert events heard through a player, as far as the switches allow. It only
/// hands each alert to the player, which queues any slow work off the timer's thread.
public final class AlertListener: SessionListener {
    private let player: any AlertPlayer
    private let switches: AlertSwitches

    public init(player: any AlertPlayer, switches: AlertSwitches) {
        self.player = player
        self.switches = switches
    }

    public func receive(_ event: Event) {
        guard case let .alert(type, text, notification) = event.kind else { return }
        switch type {
        case .bell where switches.bell:
            player.bell()
        case .notify where switches.notify:
            let notification = notification ?? Notification(title: text, body: "")
            player.notify(title: notification.title, body: notification.body, urgency: notification.urgency)
        case .say where switches.voice:
            player.say(text)
        default:
            break
        }
    }
}
