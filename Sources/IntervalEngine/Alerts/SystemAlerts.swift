import Foundation

/// Alerts for real: BEL to the terminal, `notify-send` for desktop notifications and
/// `spd-say` or `espeak-ng` for speech. Programs run through `ChildProcess`, from an
/// argument vector, never through a shell, one at a time on a queue of their own, so the
/// timer's thread never waits for one. A program that is missing or fails gives one
/// warning, and that alert is off from then on.
///
/// The queues report on other threads, hence the lock.
public final class SystemAlerts: AlertPlayer, @unchecked Sendable {
    private let lock = NSLock()
    private let warn: @Sendable (String) -> Void
    private let terminal: FileHandle?
    private var notifier: String?
    private var speaker: (path: String, arguments: [String])?
    private var warnedSpeech = false
    private let notifications = DispatchQueue(label: "workout.notifications")
    /// One speech at a time: a number said over the previous one is not understood.
    private let speech = DispatchQueue(label: "workout.speech")
    /// The id notify-send printed for the last notification (touched on `notifications` only).
    private var lastNotification: String?

    /// How long a notify-send may take before it is killed and notifications are off.
    let notifyTimeout: Double
    /// How long one utterance may take before the synthesizer is killed.
    let speechTimeout: Double

    /// Only the programs the switches call for are looked up (and missed).
    public init(switches: AlertSwitches, environment: [String: String] = ProcessInfo.processInfo.environment,
                notifyTimeout: Double = 5, speechTimeout: Double = 30, warn: @escaping @Sendable (String) -> Void) {
        self.warn = warn
        self.notifyTimeout = notifyTimeout
        self.speechTimeout = speechTimeout
        terminal = switches.bell ? FileHandle(forWritingAtPath: "/dev/tty") : nil
        if switches.notify {
            notifier = ExecutableSearch.find("notify-send", environment: environment)
            if notifier == nil { warn("notify-send is not installed; desktop notifications are off") }
        }
        if !switches.voice {
            warnedSpeech = true
        } else if let spd = ExecutableSearch.find("spd-say", environment: environment) {
            speaker = (spd, [])
        } else if let espeak = ExecutableSearch.find("espeak-ng", environment: environment) {
            speaker = (espeak, [])
        }
    }

    public func bell() {
        terminal?.write(Data([0x07]))
    }

    /// Sends a notification that replaces the previous one, so a workout leaves one
    /// bubble that changes, not a pile. Notifications go out one at a time on their own
    /// queue (each needs the id the previous one printed); a notify-send that hangs is
    /// killed after `notifyTimeout` and never holds up the timers.
    public func notify(title: String, body: String, urgency: Urgency) {
        guard let path = lock.withLock({ notifier }) else { return }
        notifications.async { [self] in
            var arguments = ["--app-name=workout", "--print-id"]
            if let id = lastNotification { arguments.append("--replace-id=\(id)") }
            if urgency != .normal { arguments.append("--urgency=\(urgency.rawValue)") }
            // "--" keeps a title such as "-5 min" from reading as an option.
            arguments += ["--", title, body]
            let result = ChildProcess.run(path, arguments, timeout: notifyTimeout)
            switch result {
            case let .exited(0, output):
                let id = output.trimmingCharacters(in: .whitespacesAndNewlines)
                lastNotification = UInt32(id) != nil ? id : nil
            case let .exited(status, _):
                stopNotifying("notify-send failed (exit \(status)); desktop notifications are off")
            case .timedOut:
                stopNotifying("notify-send did not answer within \(Number.format(notifyTimeout)) s; "
                              + "desktop notifications are off")
            case .failedToStart:
                stopNotifying("notify-send could not be started; desktop notifications are off")
            }
        }
    }


    /// Waits (at most `timeout` seconds) for notifications still queued, so the one for
    /// the finish is not lost when the process exits right after it.
    public func waitForNotifications(timeout: Double) {
        let done = DispatchSemaphore(value: 0)
        notifications.async { done.signal() }
        _ = done.wait(timeout: .now() + timeout)
    }

    private func stopNotifying(_ warning: String) {
        lock.withLock {
            guard notifier != nil else { return }
            notifier = nil
            warn(warning)
        }
    }

    public func say(_ text: String) {
        let speaker = lock.withLock { () -> (path: String, arguments: [String])? in
            if self.speaker == nil && !warnedSpeech {
                warnedSpeech = true
                warn("no speech synthesizer (spd-say or espeak-ng); spoken text is only shown")
            }
            return self.speaker
        }
        guard let speaker else { return }
        // A leading space keeps text such as "-3" from reading as an option.
        let spoken = text.hasPrefix("-") ? " " + text : text
        speech.async { [self] in
            let failure: String
            switch ChildProcess.run(speaker.path, speaker.arguments + [spoken], timeout: speechTimeout) {
            case .exited(0, _): return
            case let .exited(status, _): failure = "\(speaker.path) failed (exit \(status)); speech is off"
            case .timedOut: failure = "\(speaker.path) did not finish within \(Number.format(speechTimeout)) s; speech is off"
            case .failedToStart: failure = "\(speaker.path) could not be started; speech is off"
            }
            lock.withLock {
                guard self.speaker != nil else { return }
                self.speaker = nil
                warn(failure)
            }
        }
    }
}
