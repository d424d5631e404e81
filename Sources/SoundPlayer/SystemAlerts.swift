import Foundation
import IntervalEngine
import Platform
import Synchronization
import WorkoutValues

/// Alerts for real: BEL to the terminal, `notify-send` for desktop notifications and
/// `spd-say` or `espeak-ng` for speech. Programs run through `ChildProcess`, from an
/// argument vector, never through a shell, one at a time on a queue of their own, so the
/// timer's thread never waits for one, and at most one speech and one notification
/// process exist at any moment. What waits behind them is bounded: a notification
/// replaces the one before anyway, so only the latest waits; speech keeps the latest
/// `speechBacklog` texts (16 `say()`s at once do not start 16 synthesizers). A text is
/// cut to `HeardLimits.longestText` bytes, and espeak-ng reads it on standard input, so
/// no text can be too long to start a synthesizer with. A program that is missing or
/// fails gives one warning, and that alert is off from then on.
///
/// The queues report on other threads: what they share is one `State` under a `Mutex`.
public final class SystemAlerts: AlertPlayer, Sendable {
    /// The synthesizer; `input`: it reads the text on standard input (espeak-ng), not as
    /// an argument (spd-say, whose pipe mode echoes and splits lines).
    typealias Speaker = (path: String, arguments: [String], input: Bool)
    typealias Notification = (title: String, body: String, urgency: Urgency)

    private struct State {
        var notifier: String?
        var speaker: Speaker?
        var warnedSpeech = false
        /// The id notify-send printed for the last notification (used on `notifications` only).
        var lastNotification: String?
        /// The latest notification not sent yet, and whether a notify-send runs now.
        var waitingNotification: Notification?
        var notifying = false
        /// Texts waiting to be spoken, oldest first, and whether a synthesizer runs now.
        var waitingSpeech: [String] = []
        var speaking = false
    }

    private let state: Mutex<State>
    private let warn: @Sendable (String) -> Void
    private let terminal: FileHandle?
    private let notifications = DispatchQueue(label: "workout.notifications")
    /// One speech at a time: a number said over the previous one is not understood.
    private let speech = DispatchQueue(label: "workout.speech")

    /// How many texts may wait behind the one being spoken: older ones are dropped, as
    /// the newest (the countdown, the current segment) is what matters.
    static let speechBacklog = 2

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
        terminal = switches.bellAllowed ? FileHandle(forWritingAtPath: "/dev/tty") : nil
        var initial = State()
        if switches.notify {
            initial.notifier = ExecutableSearch.find("notify-send", environment: environment)
            if initial.notifier == nil { warn("notify-send is not installed; desktop notifications are off") }
        }
        if !switches.voice {
            initial.warnedSpeech = true
        } else if let spd = ExecutableSearch.find("spd-say", environment: environment) {
            initial.speaker = (spd, [], false)
        } else if let espeak = ExecutableSearch.find("espeak-ng", environment: environment) {
            initial.speaker = (espeak, ["--stdin"], true)
        }
        state = Mutex(initial)
    }

    public func bell() {
        terminal?.write(Data([0x07]))
    }

    /// Sends a notification that replaces the previous one, so a workout leaves one
    /// bubble that changes, not a pile. Notifications go out one at a time on their own
    /// queue (each needs the id the previous one printed); while one is out, only the
    /// latest waits. A notify-send that hangs is killed after `notifyTimeout` and never
    /// holds up the timers.
    public func notify(title: String, body: String, urgency: Urgency) {
        let start = state.withLock { state -> Bool in
            guard state.notifier != nil else { return false }
            state.waitingNotification = (title, body, urgency)
            guard !state.notifying else { return false }
            state.notifying = true
            return true
        }
        if start { notifications.async { [self] in sendNotifications() } }
    }

    /// Sends the waiting notification, and the next one that came meanwhile, until none waits.
    private func sendNotifications() {
        while let (path, next, last) = state.withLock({ state -> (String, Notification, String?)? in
            guard let path = state.notifier, let next = state.waitingNotification else {
                state.notifying = false
                return nil
            }
            state.waitingNotification = nil
            return (path, next, state.lastNotification)
        }) {
            var arguments = ["--app-name=workout", "--print-id"]
            if let id = last { arguments.append("--replace-id=\(id)") }
            if next.urgency != .normal { arguments.append("--urgency=\(next.urgency.rawValue)") }
            // "--" keeps a title such as "-5 min" from reading as an option.
            arguments += ["--", next.title, next.body]
            switch ChildProcess.run(path, arguments, timeout: notifyTimeout) {
            case let .exited(0, output):
                let id = output.trimmingCharacters(in: .whitespacesAndNewlines)
                state.withLock { $0.lastNotification = UInt32(id) != nil ? id : nil }
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
        let giveUp = Date().addingTimeInterval(timeout)
        while state.withLock({ $0.notifying }) && Date() < giveUp {
            let done = DispatchSemaphore(value: 0)
            notifications.async { done.signal() }
            _ = done.wait(timeout: .now() + max(0, giveUp.timeIntervalSinceNow))
        }
    }

    /// The workout is over: whatever still speaks or notifies is killed, and nothing that
    /// waits is started.
    public func stop() {
        state.withLock { state in
            state.notifier = nil
            state.speaker = nil
            state.waitingNotification = nil
            state.waitingSpeech = []
        }
        ChildProcess.stopAll()
    }

    private func stopNotifying(_ warning: String) {
        let stopped = state.withLock { state -> Bool in
            guard state.notifier != nil else { return false }
            state.notifier = nil
            return true
        }
        if stopped { warn(warning) }
    }

    public func say(_ text: String) {
        let spoken = HeardLimits.cut(text)
        let (start, missing) = state.withLock { state -> (Bool, Bool) in
            guard state.speaker != nil else {
                defer { state.warnedSpeech = true }
                return (false, !state.warnedSpeech)
            }
            state.waitingSpeech.append(spoken)
            if state.waitingSpeech.count > Self.speechBacklog {
                state.waitingSpeech.removeFirst(state.waitingSpeech.count - Self.speechBacklog)
            }
            guard !state.speaking else { return (false, false) }
            state.speaking = true
            return (true, false)
        }
        if missing { warn("no speech synthesizer (spd-say or espeak-ng); spoken text is only shown") }
        if start { speech.async { [self] in speakWaiting() } }
    }

    /// Speaks the waiting texts one by one, until none waits.
    private func speakWaiting() {
        while let (speaker, text) = state.withLock({ state -> (Speaker, String)? in
            guard let speaker = state.speaker, !state.waitingSpeech.isEmpty else {
                state.speaking = false
                return nil
            }
            return (speaker, state.waitingSpeech.removeFirst())
        }) {
            let failure: String
            // A leading space keeps text such as "-3" from reading as an option.
            let outcome = speaker.input
                ? ChildProcess.run(speaker.path, speaker.arguments, input: Array(text.utf8), timeout: speechTimeout)
                : ChildProcess.run(speaker.path, speaker.arguments + [text.hasPrefix("-") ? " " + text : text],
                                   timeout: speechTimeout)
            switch outcome {
            case .exited(0, _): continue
            case let .exited(status, _): failure = "\(speaker.path) failed (exit \(status)); speech is off"
            case .timedOut: failure = "\(speaker.path) did not finish within \(Number.format(speechTimeout)) s; speech is off"
            case .failedToStart: failure = "\(speaker.path) could not be started; speech is off"
            }
            let stopped = state.withLock { state -> Bool in
                guard state.speaker != nil else { return false }
                state.speaker = nil
                // Its own warning says why; "no synthesizer" would be false.
                state.warnedSpeech = true
                return true
            }
            if stopped { warn(failure) }
        }
    }
}
