import CPulse
import Foundation
import IntervalEngine

/// The sound player: plays the session's sounds through the desktop's sound server with
/// libpulse (PulseAudio, or PipeWire through pipewire-pulse), each written ahead by the
/// stream's measured latency so that its first sample is heard at its planned moment.
///
/// All audio work runs on libpulse's threaded main loop. The run-loop thread only appends
/// a command to an inbox (under a lock held for a moment by either side) and writes to an
/// eventfd that wakes the audio thread: it never waits for audio. Between sounds the
/// stream is corked, so a workout with no sound due adds no wake-ups.
///
/// Shared by the main thread and libpulse's thread through that inbox's lock and
/// libpulse's own loop lock, which the compiler cannot see: hence `@unchecked Sendable`.
public final class PulseOutput: SoundOutput, @unchecked Sendable {
    /// What the run-loop thread asks for.
    enum Command {
        case schedule(id: UInt64, Sound, deadline: UInt64)
        case cancel(id: UInt64)
        /// A sound nobody planned; `moment`: the planned moment whose hook asked for it.
        case play(Sound, moment: UInt64?)
        /// Keeps the stream running and measured while a press may come at any moment.
        case keepReady(Bool)
        /// Converts sounds to the stream's rate ahead of their first play.
        case prepare([Sound])
        /// The workout is over: let what is under way finish, then say so.
        case finish
    }

    // Shared between the threads, under `lock`.
    private let lock = NSLock()
    /// What the stream's clock did, taken as `close` lets go of the server; nil before.
    private var closedReport: Report?
    private var inbox: [Command] = []
    private var broken = false
    private var closing: DispatchSemaphore?
    /// Closing without waiting (a signal ends the run): the audio thread renders nothing more.
    private var abandoned = false

    /// The run-loop thread's own: what `keepReady` last sent.
    private var toldReady = false

    // The audio thread's own (or set up before it starts).
    let mainloop: OpaquePointer
    var context: OpaquePointer?
    var stream: OpaquePointer?
    var wakeEvent: OpaquePointer?
    var timer: OpaquePointer?
    let wakeFD: Int32
    /// Each distinct sound rendered once, at the stream's rate.
    var rendered: RenderedSounds
    var synthesizer: Synthesizer { rendered.synthesizer }
    /// Sounds to play, by deadline.
    var jobs: [Job] = []
    var streamState = StreamState.corked
    /// The stream was ready once: a failure from now on is the server going away.
    var streamReady = false
    /// A timing update is on its way: the writes wait for it.
    var timingRequested = false
    /// When the latest timing update came (µs of libpulse's clock; 0: none yet).
    var measuredAt: UInt64 = 0
    /// When the running stream's latest burst of timing updates began (µs).
    var samplingStarted: UInt64 = 0
    /// An open segment waits for the athlete: the stream runs and its timing is kept fresh.
    var keptReady = false
    /// The server rewinds its sink for a sound written behind what the sink has read
    /// (PulseAudio; not pipewire-pulse): a sound nobody planned may then be placed on its
    /// moment within the sink's latency.
    var serverRewinds = false

    /// Whether a server of this name is known to rewind: PulseAudio itself ("pulseaudio").
    /// pipewire-pulse ("PulseAudio (on PipeWire …)") does not, and nor may any other that
    /// speaks the protocol: a sound written behind the read index of a server that does
    /// not rewind is lost or heard late, so any server not known to rewind gets the safe
    /// path (a sound nobody planned goes after what the sink has read).
    static func rewinds(server name: String) -> Bool {
        name == "pulseaudio"
    }
    /// The end of what was written to the stream (bytes from its start).
    var written: Int64 = 0
    /// The sink's latency, measured at every timing update (µs).
    var sinkLatency: UInt64 = 0
    /// The running stream's recent timing updates, which place the sounds.
    var streamClock = StreamClock(rate: 48_000)
    /// Underruns and restarts of the clock so far (`PulseOutput+Report`).
    var report = Report()
    let volume: Double
    let warn: @Sendable (String) -> Void
    /// Signalled once the stream is ready or the connection failed.
    let connected = DispatchSemaphore(value: 0)
    var connectFailure: String?

    init(mainloop: OpaquePointer, wakeFD: Int32, volume: Double, warn: @escaping @Sendable (String) -> Void) {
        self.mainloop = mainloop
        self.wakeFD = wakeFD
        self.volume = volume
        self.warn = warn
        rendered = RenderedSounds(Synthesizer(sampleRate: 48_000, volume: volume))
    }

    public var isWorking: Bool { lock.withLock { !broken } }

    public func schedule(_ id: UInt64, _ sound: Sound, at deadline: UInt64) {
        send(.schedule(id: id, sound, deadline: deadline))
    }

    public func cancel(_ id: UInt64) { send(.cancel(id: id)) }

    public func play(_ sound: Sound) { send(.play(sound, moment: nil)) }

    public func play(_ sound: Sound, for moment: UInt64) { send(.play(sound, moment: moment)) }

    /// Told at every segment's start and end; the audio thread is woken only for a change.
    public func keepReady(_ ready: Bool) {
        guard ready != toldReady else { return }
        toldReady = ready
        send(.keepReady(ready))
    }

    /// Converts the routine's sound files to the stream's rate now, at the start, rather
    /// than at each one's first play: a hook's `sound("gong.ogg")` then plays at once, and
    /// nothing queued behind it waits for a resampling.
    public func prepare(_ sounds: [Sound]) {
        guard !sounds.isEmpty else { return }
        send(.prepare(sounds))
    }

    private func send(_ command: Command) {
        let wake = lock.withLock { () -> Bool in
            guard !broken else { return false }
            inbox.append(command)
            return inbox.count == 1
        }
        guard wake else { return }
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { write(wakeFD, $0.baseAddress, 8) }
    }

    /// On the audio thread: the commands sent since the last call.
    func takeInbox() -> [Command] {
        var one: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &one) { read(wakeFD, $0.baseAddress, 8) }
        return lock.withLock {
            defer { inbox.removeAll(keepingCapacity: true) }
            return inbox
        }
    }

    /// On the audio thread: the output can no longer play. Warns once; from then on
    /// `isWorking` is false and the bell stands in.
    func fail(_ reason: String) {
        let first = lock.withLock { () -> Bool in
            defer { broken = true }
            return !broken
        }
        jobs.removeAll()
        if first { warn("sound: \(reason)") }
        finishClosing()
    }

    /// Lets the sounds already under way finish (at most `timeout` seconds), then
    /// disconnects. Called once the workout is over, from the main thread. With a timeout
    /// of 0 (a signal ended the run) nothing more is rendered: the audio thread lets go
    /// of the main loop after the sound it is rendering now.
    public func close(timeout: Double) {
        let done = DispatchSemaphore(value: 0)
        let working = lock.withLock { () -> Bool in
            closing = done
            abandoned = timeout <= 0
            return !broken
        }
        if working {
            send(.finish)
            _ = done.wait(timeout: .now() + timeout)
        }
        pulse.threaded_mainloop_lock!(mainloop)
        let report = currentReport()
        lock.withLock {
            broken = true
            closedReport = report
        }
        disconnect()
        pulse.threaded_mainloop_unlock!(mainloop)
        pulse.threaded_mainloop_stop!(mainloop)
        pulse.threaded_mainloop_free!(mainloop)
        closeDescriptor(wakeFD)
    }

    /// Underruns, restarts and the sink's rate over the run, once `close` has returned.
    public var finalReport: Report? { lock.withLock { closedReport } }

    /// On the audio thread: the run is ending at once; what is still in the inbox is left
    /// unrendered.
    var isAbandoned: Bool { lock.withLock { abandoned } }

    /// On the audio thread: nothing is left to play and the main thread waits to close.
    func finishClosing() {
        let waiting = lock.withLock { closing }
        guard let waiting, jobs.isEmpty else { return }
        lock.withLock { closing = nil }
        waiting.signal()
    }
}

/// `close(2)`, which the class's own `close(timeout:)` hides.
private func closeDescriptor(_ fd: Int32) {
    _ = Glibc.close(fd)
}
