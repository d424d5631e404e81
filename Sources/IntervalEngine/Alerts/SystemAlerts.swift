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

    /// `notify`: whether notifications are wanted (the session only asks when they are).
    public init(notify: Bool, environment: [String: String] = ProcessInfo.processInfo.environment,
                warn: @escaping @Sendable (String) -> Void) {
        self.warn = warn
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

    public func notify(title: String, body: String) {
        guard let path = lock.withLock({ notifier }) else { return }
        launch(path, ["--app-name=workout", title, body]) { [self] status in
            lock.withLock {
                guard notifier != nil else { return }
                notifier = nil
                warn("notify-send failed (exit \(status)); desktop notifications are off")
            }
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
