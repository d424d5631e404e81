import Foundation

/// Which alerts sound or show: the one place where the command line's flags and the
/// machine's environment decide it. The session reads it to know which automatic alerts
/// to give (a bell and a flash at each boundary and countdown second, a notification per
/// segment, the spoken countdown); the alert player and the live display read it to know
/// which alert events, the routine's own `bell()`, `notify()`, `say()` and `flash()`
/// included, they make heard or seen. An alert that is off is still an event: `--json`
/// and the display see it.
public struct AlertSwitches: Sendable, Equatable {
    /// The terminal bell (on unless `--no-bell`; off in a dry run unless `--bell`).
    public var bell: Bool
    /// Desktop notifications through notify-send.
    public var notify: Bool
    /// Speech (`--voice`).
    public var voice: Bool
    /// The visual bell: the live display's band flashes (on when the display is shown,
    /// unless `--no-flash`). Nothing else can show it, so it is off without the display.
    public var flash: Bool

    public init(bell: Bool = true, notify: Bool = false, voice: Bool = false, flash: Bool = false) {
        self.bell = bell
        self.notify = notify
        self.voice = voice
        self.flash = flash
    }

    /// Nothing sounds or shows.
    public static let silent = AlertSwitches(bell: false, notify: false, voice: false, flash: false)

    /// The switches for a run: `--bell`/`--no-bell` (nil: on, but off in a dry run, whose
    /// printed lines would otherwise carry a bell for every countdown second),
    /// `--notify`/`--no-notify` (nil: on where a session bus and notify-send exist),
    /// `--voice`, `--no-flash`, and whether the live display is shown. A dry run never
    /// notifies, speaks or flashes.
    public static func decide(bell: Bool?, notify: Bool?, voice: Bool, noFlash: Bool = false,
                              display: Bool = false, dryRun: Bool,
                              environment: [String: String] = ProcessInfo.processInfo.environment) -> AlertSwitches {
        let notifications = notify ?? notificationsAvailable(environment: environment)
        return AlertSwitches(bell: bell ?? !dryRun, notify: notifications && !dryRun, voice: voice && !dryRun,
                             flash: display && !noFlash && !dryRun)
    }

    /// Notifications default to on where a desktop session bus is and `notify-send` exists.
    public static func notificationsAvailable(environment: [String: String]) -> Bool {
        guard let bus = environment["DBUS_SESSION_BUS_ADDRESS"], !bus.isEmpty else { return false }
        return ExecutableSearch.find("notify-send", environment: environment) != nil
    }

    /// Whether the countdown's seconds need timers of their own.
    var countdown: Bool { bell || voice || flash }
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
            // A flash is the live display's to show (it reads the same switch).
            break
        }
    }
}
