import Foundation

/// Which alerts sound or show: the one place where the command line's flags and the
/// machine's environment decide it. The session reads it to know which automatic alerts
/// to give (a bell and a flash at each boundary and countdown second, a notification per
/// segment, the spoken countdown); the alert player and the live display read it to know
/// which alert events, the routine's own `bell()`, `notify()`, `say()` and `flash()`
/// included, they make heard or seen. An alert that is off is still an event: `--json`
/// and the display see it.
public struct AlertSwitches: Sendable, Equatable {
    /// The automatic terminal bell at boundaries and countdown seconds: on where no sound
    /// plays (or with `--bell`), never with `--no-bell`; off in a dry run unless `--bell`.
    public var bell: Bool
    /// Whether the terminal may ring at all (not `--no-bell`): the routine's own `bell()`,
    /// and the stand-in for sounds when there is no sound server or it goes away.
    public var terminalBell: Bool
    /// Sounds made in the process, played by the sound server.
    public var sound: Bool
    /// Desktop notifications through notify-send.
    public var notify: Bool
    /// Speech (`--voice`).
    public var voice: Bool
    /// The visual bell: the live display's band flashes (on when the display is shown,
    /// unless `--no-flash`). Nothing else can show it, so it is off without the display.
    public var flash: Bool

    /// `terminalBell` defaults to `bell`.
    public init(bell: Bool = true, notify: Bool = false, voice: Bool = false, flash: Bool = false,
                sound: Bool = false, terminalBell: Bool? = nil) {
        self.bell = bell
        self.terminalBell = terminalBell ?? bell
        self.sound = sound
        self.notify = notify
        self.voice = voice
        self.flash = flash
    }

    /// Nothing sounds or shows.
    public static let silent = AlertSwitches(bell: false, notify: false, voice: false, flash: false)

    /// The switches for a run: `--bell`/`--no-bell` (nil: on where no sound plays, but off
    /// in a dry run, whose printed lines would otherwise carry a bell for every countdown
    /// second), `sound`: sounds are wanted (not `--no-sound`) and a sound server answered,
    /// `--notify`/`--no-notify` (nil: on where a session bus and notify-send exist),
    /// `--voice`, `--no-flash`, and whether the live display is shown. A dry run plays no
    /// sound (its events are those of a run without a sound server), and never notifies,
    /// speaks or flashes.
    public static func decide(bell: Bool?, sound: Bool = false, notify: Bool?, voice: Bool, noFlash: Bool = false,
                              display: Bool = false, dryRun: Bool,
                              environment: [String: String] = ProcessInfo.processInfo.environment) -> AlertSwitches {
        let notifications = notify ?? notificationsAvailable(environment: environment)
        let sounds = sound && !dryRun
        return AlertSwitches(bell: bell ?? (!dryRun && !sounds), notify: notifications && !dryRun,
                             voice: voice && !dryRun, flash: display && !noFlash && !dryRun,
                             sound: sounds, terminalBell: bell ?? !dryRun)
    }

    /// Notifications default to on where a desktop session bus is and `notify-send` exists.
    public static func notificationsAvailable(environment: [String: String]) -> Bool {
        guard let bus = environment["DBUS_SESSION_BUS_ADDRESS"], !bus.isEmpty else { return false }
        return ExecutableSearch.find("notify-send", environment: environment) != nil
    }

    /// Whether the countdown's seconds need timers of their own.
    var countdown: Bool { bell || voice || flash || sound }
}

/// Makes alert events heard through a player, as far as the switches allow. It only
/// hands each alert to the player, which queues any slow work off the timer's thread.
public final class AlertListener: SessionListener {
    private let player: any AlertPlayer
    private let switches: AlertSwitches
    /// Speech goes elsewhere (`SpokenSounds`, which says aloud through the player only
    /// what it could not render in time): said here too, it would be heard twice.
    private let speechElsewhere: Bool

    public init(player: any AlertPlayer, switches: AlertSwitches, speechElsewhere: Bool = false) {
        self.player = player
        self.switches = switches
        self.speechElsewhere = speechElsewhere
    }

    public func receive(_ event: Event) {
        guard case let .alert(type, text, detail) = event.kind else { return }
        switch type {
        case .bell where switches.terminalBell:
            // Automatic bells are events only where the switches want them; the
            // routine's own bell() rings unless --no-bell.
            player.bell()
        case .sound where !switches.sound && switches.terminalBell:
            // A routine's sound() with no sound to play it: the bell stands in.
            player.bell()
        case .notify where switches.notify:
            var notification = Notification(title: text, body: "")
            if case let .notification(parts)? = detail { notification = parts }
            player.notify(title: notification.title, body: notification.body, urgency: notification.urgency)
        case .say where switches.voice && !speechElsewhere:
            player.say(text)
        default:
            // A flash is the live display's to show (it reads the same switch).
            break
        }
    }
}
