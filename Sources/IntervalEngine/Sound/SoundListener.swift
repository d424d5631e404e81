/// Where sounds are heard: the sound server's stream (`PulseOutput`), or a recorder in
/// tests. Every call returns at once; the output does its work on its own thread.
public protocol SoundOutput: AnyObject {
    /// False once the output can no longer play (the server went away): the bell stands in.
    var isWorking: Bool { get }
    /// Plays `sound` so that its first sample is heard at `deadline` (ns of
    /// CLOCK_MONOTONIC), written ahead by the output's latency. `id` names it for `cancel`;
    /// a second sound scheduled with the same id replaces the first (a moment's tone
    /// replaced by the tone with its spoken words, `SpokenSounds`).
    func schedule(_ id: UInt64, _ sound: Sound, at deadline: UInt64)
    /// Takes back a scheduled sound: if it has not started, it never plays.
    func cancel(_ id: UInt64)
    /// Plays `sound` as soon as it can.
    func play(_ sound: Sound)
    /// Plays `sound` as soon as it can, as near as it can to `moment` (ns of
    /// CLOCK_MONOTONIC, just past: the planned moment whose hook asked for it).
    func play(_ sound: Sound, for moment: UInt64)
    /// Whether a sound nobody can plan may be asked for at any moment (an open segment
    /// waits for the athlete's "done"): the output keeps itself ready to play at once
    /// rather than waking up first.
    func keepReady(_ ready: Bool)
}

extension SoundOutput {
    public func keepReady(_ ready: Bool) {}
    public func play(_ sound: Sound, for moment: UInt64) { play(sound) }
}

/// Makes the session's sounds heard on time. A sound known ahead (a countdown pip, the
/// next segment's start sound, the finish chime) comes as a planned moment and is handed
/// to the output at once, to be written early enough to land on its deadline; a moment
/// withdrawn by a pause, skip, back or extend is cancelled, and if it comes later it is
/// planned anew. A sound nobody planned (a hook's `sound()`, a segment started by a key)
/// plays as soon as its event arrives. Once the output stops working, every sound event
/// rings the bell instead.
public final class SoundListener: SessionListener {
    private let output: any SoundOutput
    private let bell: () -> Void
    /// Moments handed to the output whose event has not come yet.
    private var scheduled: Set<UInt64> = []
    /// The deadlines of the latest planned moments, by their workout second: a hook's sound
    /// at a moment belongs to that moment's deadline.
    private var deadlines: [Double: UInt64] = [:]

    /// `bell` rings the terminal bell (or does nothing, with `--no-bell`).
    public init(output: any SoundOutput, bell: @escaping () -> Void) {
        self.output = output
        self.bell = bell
    }

    public func planned(_ moment: PlannedMoment) {
        deadlines[moment.at] = moment.deadline
        if deadlines.count > 64, let oldest = deadlines.keys.min() { deadlines[oldest] = nil }
        guard let sound = moment.sound, output.isWorking else { return }
        scheduled.insert(moment.id)
        output.schedule(moment.id, sound, at: moment.deadline)
    }

    public func withdrawn(_ moment: PlannedMoment) {
        guard scheduled.remove(moment.id) != nil else { return }
        output.cancel(moment.id)
    }

    public func receive(_ event: Event) {
        switch event.kind {
        case let .segmentStart(segment, _):
            // The press that ends an open segment starts the next one's sound at once.
            output.keepReady(segment.open != nil)
        case .segmentEnd, .workoutEnd:
            output.keepReady(false)
        default:
            break
        }
        guard case let .alert(.sound, _, .sound(alert)?) = event.kind, alert.heard == .played else { return }
        let written = alert.moment.map { scheduled.remove($0) != nil } ?? false
        if !output.isWorking {
            bell()
        } else if !written {
            if let moment = event.fire.flatMap({ deadlines[$0.at] }) {
                output.play(alert.sound, for: moment)
            } else {
                output.play(alert.sound)
            }
        }
    }
}
