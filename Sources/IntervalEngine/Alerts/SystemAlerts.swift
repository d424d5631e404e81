import Foundation

/// Alerts for real: BEL to the terminal, `notify-send` for desktop notifications and
/// `spd-say` or `espeak-ng` for speech. Programs run from an argument vector, never
/// through a shell, with their output discarded. A program that is missing or fails
/// gives one warning, and that alert is off from then on.
///
/// Process termination is reported on another thread, hence the lock.
public final class SystemAlerts: AlertPlayer, @unchecked Sendable {
    private let lock = NSLock()
    private let warn: @Sendable (String) -> Void
    private let terminal: FileHandle?
    private var notifier: String?
    private var speaker: (path: String, arguments: [String])?
    private var warnedSpeech = false
    private let notifications = DispatchQueue(label: "workout.notifications")
    /// The id notify-send printed for the last notification (touched on `notifications` only).
    private var lastNotification: String?

    /// How long a notify-send may take before it is killed and notifications are off.
    let notifyTimeout: Double

    /// `notify`: whether notifications are wanted (the session only asks when they are).
    public init(notify: Bool, environment: [String: String] = ProcessInfo.processInfo.environment,
                notifyTimeout: Double = 5, warn: @escaping @Sendable (String) -> Void) {
        self.warn = warn
        self.notifyTimeout = notifyTimeout
        terminal = FileHandle(forWritingAtPath: "/dev/tty")
        if notify {
            notifier = ExecutableSearch.find("notify-send", environment: environment)
            if notifier == nil { warn("notify-send is not installed; desktop notifications are off") }
        }
        if let spd = ExecutableSearch.find("spd-say", environment: environment) {
            speaker = (spd, [])
        } else if let espeak = ExecutableSearch.find("espeak-ng", environment: environment) {
            speaker = (espeak, [])
        }
    }

    /// Notifications default to on where a desktop session bus is and `notify-send` exists.
    public static func notificationsAvailable(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard let bus = environment["DBUS_SESSION_BUS_ADDRESS"], !bus.isEmpty else { return false }
        return ExecutableSearch.find("notify-send", environment: environment) != nil
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
        launch(speaker.path, speaker.arguments + [spoken]) { [self] status in
            lock.withLock {
                guard self.speaker != nil else { return }
                self.speaker = nil
                warn("\(speaker.path) failed (exit \(status)); speech is off")
            }
        }
    }

    /// Starts a program without waiting for it; `failed` runs if it exits non-zero.
    private func launch(_ path: String, _ arguments: [String], failed: @escaping @Sendable (Int32) -> Void) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.terminationHandler = { process in
            if process.terminationStatus != 0 { failed(process.terminationStatus) }
        }
        do {
            try process.run()
        } catch {
            failed(-1)
        }
    }
}
