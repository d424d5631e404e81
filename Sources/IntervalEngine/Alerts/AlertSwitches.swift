import Foundation
import Platform

/// Which alerts sound or show: the one place where the command line's flags and the
/// machine's environment decide it, once per run. Only the alert policy (`AlertPolicy`)
/// reads the switches: it gives the automatic alerts that are on, and marks the routine's
/// own alerts that are off as unheard; the players play what they are given.
public struct AlertSwitches: Sendable, Equatable {
    /// The session rings the terminal bell by itself at boundaries and countdown seconds:
    /// on where no sound plays (or with `--bell`), never with `--no-bell`; off in a dry
    /// run unless `--bell`.
    public var automaticBells: Bool
    /// The terminal may ring at all (not `--no-bell`): the routine's own `bell()`, and the
    /// stand-in for sounds when there is no sound server or it goes away.
    public var bellAllowed: Bool
    /// Sounds made in the process, played by the sound server.
    public var sound: Bool
    /// Desktop notifications through notify-send.
    public var notify: Bool
    /// Speech (`--voice`).
    public var voice: Bool
    /// The visual bell: the live display's band flashes (on when the display is shown,
    /// unless `--no-flash`). Nothing else can show it, so it is off without the display.
    public var flash: Bool

    /// `bell`: the automatic bells; `bellAllowed` defaults to it.
    public init(bell: Bool = true, notify: Bool = false, voice: Bool = false, flash: Bool = false,
                sound: Bool = false, bellAllowed: Bool? = nil) {
        automaticBells = bell
        self.bellAllowed = bellAllowed ?? bell
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
                             sound: sounds, bellAllowed: bell ?? !dryRun)
    }

    /// Notifications default to on where a desktop session bus is and `notify-send` exists.
    public static func notificationsAvailable(environment: [String: String]) -> Bool {
        guard let bus = environment["DBUS_SESSION_BUS_ADDRESS"], !bus.isEmpty else { return false }
        return ExecutableSearch.find("notify-send", environment: environment) != nil
    }
}

/// Makes alert events heard through a player: bells, notifications and speech. The
/// alert policy has decided what is heard: this plays every alert it is given, except
/// those the policy marked unheard, and hands each to the player, which queues any slow
/// work off the timer's thread.
public final class AlertListener: SessionListener {
    private let player: any AlertPlayer
    /// Speech goes elsewhere (`SpokenSounds`, which says aloud through the player only
    /// what it could not render in time): said here too, it would be heard twice.
    private let speechElsewhere: Bool

    public init(player: any AlertPlayer, speechElsewhere: Bool = false) {
        self.player = player
        self.speechElsewhere = speechElsewhere
    }

    public func receive(_ event: Event) {
        guard case let .alert(type, text, detail) = event.kind, detail != .unheard else { return }
        switch type {
        case .bell:
            player.bell()
        case .sound:
            if case let .sound(alert)? = detail, alert.heard == .bell { player.bell() }
        case .notify:
            var notification = Notification(title: text, body: "")
            if case let .notification(parts)? = detail { notification = parts }
            player.notify(title: notification.title, body: notification.body, urgency: notification.urgency)
        case .say where !speechElsewhere:
            player.say(text)
        default:
            // A flash is the live display's to show; a sound the sound player's.
            break
        }
    }
}
