import WorkoutValues

/// The one alert policy: from a moment of the session and the switches, the alerts that
/// moment makes. The session asks it when it plans a moment's timer — the sounds and
/// words it returns are handed to the players ahead, to land on the moment — and gives
/// the same list when the timer fires, so what was planned and what is given cannot
/// differ. Moments nobody can plan (a key's skip, a hook's `bell()`) are asked at once.
///
/// It is also the only reader of the switches at run time: an alert the switches leave
/// off is either not given at all (the automatic ones: a bell at every countdown second
/// is no event when bells are off) or, for the routine's own `bell()`, `flash()`,
/// `notify()`, `say()` and `sound()`, given as `unheard` — still an event for `--json`
/// and the message line, played by nobody. Players play what they are given.
public struct AlertPolicy: Sendable {
    public let switches: AlertSwitches
    let sounds: SoundScheme

    public init(switches: AlertSwitches, sounds: SoundScheme) {
        self.switches = switches
        self.sounds = sounds
    }

    /// A moment of the session that may make alerts.
    package enum Moment {
        /// `segment` starts; `next` follows it, when known (the notification names it).
        case segmentStart(Segment, next: Segment?)
        /// One of the countdown's seconds: `second` left.
        case countdown(second: Int)
        /// A text cue comes.
        case textCue(String)
        /// "Next: …", ahead of the countdown.
        case announcement(String)
        /// The workout's last segment ended, completed: the chime and the bell.
        case finish
        /// The workout ended, completed, and its summary is known: the notification.
        case summary(title: String, body: String)
        case pause, resume
        /// The routine asked for an alert itself.
        case routine(Alert)
    }

    /// One alert to give, as the event that carries it.
    public enum Alert: Sendable, Equatable {
        /// The terminal bell; `text` is the countdown second's number, or empty.
        case bell(String)
        /// The live display's band flashes; `text` as for the bell.
        case flash(String)
        case sound(Sound)
        /// No sound can play in this run (none wanted or no server): the terminal bell
        /// stands in for this one.
        case bellForSound(Sound)
        case notify(Notification)
        case say(String)
        /// A routine's sound when neither sound nor the bell is on: an event, never heard.
        case unheardSound(Sound)
        /// An alert of the routine's own that the switches leave off: an event, never heard.
        case unheard(Event.Alert, text: String)

        /// The event that gives it; `moment`: the planned moment it was announced with.
        func event(moment: UInt64?) -> Event.Kind {
            switch self {
            case .bell(let text): .alert(.bell, text: text, nil)
            case .flash(let text): .alert(.flash, text: text, nil)
            case .sound(let sound): .alert(.sound, text: sound.name, .sound(SoundAlert(sound: sound, moment: moment)))
            case .bellForSound(let sound):
                .alert(.sound, text: sound.name, .sound(SoundAlert(sound: sound, moment: nil, heard: .bell)))
            case .unheardSound(let sound):
                .alert(.sound, text: sound.name, .sound(SoundAlert(sound: sound, moment: nil, heard: .unheard)))
            case .notify(let notification):
                .alert(.notify, text: notification.body.isEmpty ? notification.title
                                        : "\(notification.title): \(notification.body)", .notification(notification))
            case .say(let text): .alert(.say, text: text, moment.map { .spoken(moment: $0) })
            case let .unheard(type, text): .alert(type, text: text, .unheard)
            }
        }
    }

    /// The alerts of `moment`, in the order they are given.
    func alerts(for moment: Moment) -> [Alert] {
        var alerts: [Alert] = []
        switch moment {
        case let .segmentStart(segment, next):
            if switches.sound, let sound = sounds.start(of: segment.kind) { alerts.append(.sound(sound)) }
            if switches.automaticBells { alerts.append(.bell("")) }
            if switches.flash { alerts.append(.flash("")) }
            if switches.notify {
                alerts.append(.notify(Notification(title: segment.name, body: SummaryText.segment(segment, next: next))))
            }
            if switches.voice { alerts.append(.say(segment.name)) }
        case .countdown(let second):
            let text = String(second)
            if switches.sound, let pip = sounds.countdown { alerts.append(.sound(pip)) }
            if switches.automaticBells { alerts.append(.bell(text)) }
            if switches.flash { alerts.append(.flash(text)) }
            if switches.voice { alerts.append(.say(text)) }
        case .textCue(let text), .announcement(let text):
            if switches.voice { alerts.append(.say(text)) }
        case .finish:
            if switches.sound, let chime = sounds.finish { alerts.append(.sound(chime)) }
            if switches.automaticBells { alerts.append(.bell("")) }
        case let .summary(title, body):
            if switches.notify { alerts.append(.notify(Notification(title: title, body: body, urgency: .critical))) }
        case .pause:
            if switches.sound, let sound = sounds.pause { alerts.append(.sound(sound)) }
        case .resume:
            if switches.sound, let sound = sounds.resume { alerts.append(.sound(sound)) }
        case .routine(let alert):
            alerts.append(routine(alert))
        }
        return alerts
    }

    /// A routine's own alert, heard if its switch is on.
    private func routine(_ alert: Alert) -> Alert {
        switch alert {
        case .bell(let text): switches.bellAllowed ? alert : .unheard(.bell, text: text)
        case .flash(let text): switches.flash ? alert : .unheard(.flash, text: text)
        case .sound(let sound), .bellForSound(let sound), .unheardSound(let sound):
            switches.sound ? .sound(sound) : switches.bellAllowed ? .bellForSound(sound) : .unheardSound(sound)
        case .notify(let notification):
            switches.notify ? alert : .unheard(.notify, text: Alert.notify(notification).text)
        case .say(let text): switches.voice ? alert : .unheard(.say, text: text)
        case .unheard: alert
        }
    }

    /// Whether the countdown's seconds make any alert, so need timers of their own.
    var countdownAlerts: Bool { switches.automaticBells || switches.voice || switches.flash || switches.sound }

    /// Whether the terminal bell stands in for sounds when the sound server goes away.
    public var bellStandsInForSound: Bool { switches.bellAllowed }
}

extension AlertPolicy.Alert {
    /// The text its event carries.
    var text: String {
        guard case let .alert(_, text, _) = event(moment: nil) else { return "" }
        return text
    }

    /// The sound it plays, for a player that writes it ahead.
    var sound: Sound? {
        if case .sound(let sound) = self { return sound }
        return nil
    }

    /// The words it says, for a player that renders them ahead.
    var words: String? {
        if case .say(let text) = self { return text }
        return nil
    }
}
