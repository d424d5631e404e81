import DBus
import Foundation
import GATT
import IntervalEngine
import WorkoutValues

/// ERG mode: a listener that writes each segment's power target (`ErgTarget`) to a
/// connected FTMS trainer's control point, as the segment starts (ramps a step each
/// second), the routine's `erg(watts)` in between, the trainer's easiest setting while
/// paused and the target again on resume. The trainer answers each write with an
/// indication; a refusal gives one warning, and the rider keeps the resistance. A segment
/// whose target is percent of an FTP the run does not have gives one warning too
/// (`PercentWithoutFTP`), once a trainer is there to miss it.
///
/// It lives on the main thread, with its trainer's `SensorLink`; the session calls it there
/// (the conformance checks so at each call). Inside `receive` it never reads the session
/// back: what it needs comes with the event (`Event.power`, `Event.segmentClock`). A ramp's
/// step and a trainer attached mid-segment are turns of its own, which take the session's
/// snapshot (so a step follows the segment as `extend` or a follower's shift left it). A
/// ramp's steps are timers of the session's scheduler: the main run loop in a real run,
/// the virtual clock in a test.
@MainActor
public final class TrainerControl: @preconcurrency SessionListener {
    private let snapshot: () -> SessionSnapshot
    private let scheduler: any Scheduler
    private let warn: (String) -> Void
    private var trainer: (any ErgTrainer)?
    private var inControl = false
    private var target: ErgTarget?
    /// The current segment's clock, as its latest `segment_start` or `resume` gave it.
    private var clock: SegmentClock?
    /// The routine's `erg(watts)`, until the next segment starts.
    private var override: Int?
    private var paused = false
    private var lastWritten: [UInt8]?
    private var ticker: TimerToken?
    private var warnedRefusal = false
    /// The current segment's `power` that no FTP turns into watts, if it has one.
    private var percentWithoutFTP: PercentWithoutFTP?
    private var warnedNoFTP = false
    /// Every target written (watts, or nil for the easiest setting), for tests and benchmarks.
    public private(set) var written: [Int?] = []

    /// `scheduler`: the session's, on whose clock the events' `segmentClock` is; `snapshot`:
    /// the session's, read on the control's own turns only.
    public init(snapshot: @escaping () -> SessionSnapshot, scheduler: any Scheduler, warn: @escaping (String) -> Void) {
        self.snapshot = snapshot
        self.scheduler = scheduler
        self.warn = warn
    }

    /// A trainer became live (again): take control and give it the target of the moment.
    public func attach(_ link: any ErgTrainer) {
        guard link.hasControlPoint else { return }
        trainer = link
        inControl = false
        lastWritten = nil
        apply(at: snapshotProgress)
    }

    /// What the event says is all it reads: the segment's power and clock come with
    /// `segment_start` and `resume`; the others need neither (paused, or `erg`'s watts).
    public func receive(_ event: Event) {
        switch event.kind {
        case .segmentStart(_, _):
            override = nil
            paused = false
            // The session worked out the segment's power as it started (`Event.power`).
            target = event.power?.target
            percentWithoutFTP = event.power?.percentWithoutFTP
            clock = event.segmentClock
            apply(at: eventProgress)
            tick(ramp: target?.ramp == true)
        case .erg(let watts):
            override = watts
            apply(at: eventProgress)
        case .pause:
            paused = true
            tick(ramp: false)
            apply(at: eventProgress)
        case .resume:
            paused = false
            clock = event.segmentClock ?? clock
            apply(at: eventProgress)
            tick(ramp: target?.ramp == true && override == nil)
        case .workoutEnd:
            tick(ramp: false)
            paused = true
            apply(at: eventProgress)
        default:
            break
        }
    }

    /// Where the segment was as the latest `segment_start` or `resume` said: its clock at
    /// the event's moment.
    private func eventProgress() -> (elapsed: Double, duration: Double) {
        guard let clock else { return (0, 0) }
        return (clock.elapsed(at: clock.now), clock.duration)
    }

    /// Where the segment is now, as the session's snapshot shows it: on a turn of the
    /// control's own (a ramp's step, a trainer attached), never inside `receive`.
    private func snapshotProgress() -> (elapsed: Double, duration: Double) {
        let now = snapshot()
        return (now.elapsedInSegment, now.current?.segment.duration ?? 0)
    }

    /// A ramp's target changes each second: a timer of the session's scheduler a workout
    /// second apart (a real second at `--speed 1`), while the segment runs, on the
    /// segment's own seconds: its start may still be a few milliseconds ahead (the session
    /// runs a moment's hooks ahead of it), so the first step is timed from the segment's
    /// clock the event carried, not from now. Each step sets the next from its own time,
    /// so none drifts.
    private func tick(ramp: Bool) {
        if let ticker { scheduler.cancel(ticker) }
        ticker = nil
        guard ramp else { return }
        var first = scheduler.now + 1
        if let clock {
            // Where the segment's next whole second falls on the scheduler's clock.
            first = clock.start + clock.elapsed(at: scheduler.now).rounded(.down) + 1
        }
        step(at: max(first, scheduler.now))
    }

    private func step(at time: Double) {
        ticker = scheduler.scheduleAside(at: time) { [weak self] fire in
            guard let self else { return }
            apply(at: snapshotProgress)
            step(at: fire.at + 1)
        }
    }

    /// Writes what the trainer should hold, unless it holds it already; `progress`: where
    /// the segment is, asked only for a target that depends on it.
    private func apply(at progress: () -> (elapsed: Double, duration: Double)) {
        guard let trainer, trainer.isLive else { return }
        let bytes: [UInt8]
        let watts: Int?
        if paused {
            watts = nil
            bytes = [0x04, 0x00]  // Set Target Resistance Level 0: the easiest there is
        } else if let override {
            watts = override
            bytes = FitnessMachineControl.targetPowerBytes(override)
        } else if let target {
            let (elapsed, duration) = progress()
            let value = target.watts(elapsed: elapsed, duration: duration)
            watts = value
            bytes = FitnessMachineControl.targetPowerBytes(value)
        } else {
            missedPercent()
            return
        }
        guard bytes != lastWritten else { return }
        if !inControl {
            trainer.writeControl(FitnessMachineControl.requestControlBytes(), failure: failed)
            inControl = true
        }
        lastWritten = bytes
        written.append(watts)
        trainer.writeControl(bytes, failure: failed)
    }

    /// A connected trainer got no target for a segment that asked for percent of FTP: say
    /// why, once a run.
    private func missedPercent() {
        guard let percentWithoutFTP, !warnedNoFTP else { return }
        warnedNoFTP = true
        warn("warning: \(percentWithoutFTP.warning())")
    }

    private func failed(_ failure: BusFailure) {
        refused("the write failed: \(VisibleText.escape(failure.message))")
    }

    /// The trainer's answer to a write.
    public func response(_ response: FitnessMachineControl.Response) {
        guard response.result != .success else { return }
        refused(response.reason)
    }

    private func refused(_ reason: String) {
        guard !warnedRefusal else { return }
        warnedRefusal = true
        warn("the trainer refused its power target (\(reason)); the resistance is yours")
    }

    public func stop() {
        if let ticker { scheduler.cancel(ticker) }
        ticker = nil
    }

    /// A ramp's timer goes with the control it steps.
    isolated deinit {
        if let ticker { scheduler.cancel(ticker) }
    }
}
