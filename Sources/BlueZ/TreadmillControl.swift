import DBus
import Foundation
import GATT
import IntervalEngine
import WorkoutValues

/// What `TreadmillControl` needs of a treadmill: whether it is live with a control point,
/// a write to that, and a read of its supported ranges. `SensorLink` is the real one; a
/// test gives its own (Tests/UnitTests/TreadmillControlTests.swift).
@MainActor
public protocol TreadmillDevice: AnyObject {
    var isLive: Bool { get }
    var hasTreadmillControl: Bool { get }
    func writeControl(_ bytes: [UInt8], failure: @escaping (BusFailure) -> Void)
    func readValue(_ uuid: String, reply: @escaping ([UInt8]?) -> Void)
}

extension SensorLink: TreadmillDevice {
    public var hasTreadmillControl: Bool { isTreadmill && controlPoint != nil }
}

/// A treadmill steered by the workout, safely: a listener that sets each segment's speed
/// and incline (`TreadmillTarget`, from its pace and incline targets) through the FTMS
/// control point — Request Control, Start, Set Target Speed, Set Target Inclination —
/// once per change (a belt takes seconds to get to a speed; writing it each tick would
/// only fight the ramp), within the ranges the machine says it supports (read first)
/// and never above the athlete's `max_speed`.
///
/// The athlete always wins: a speed set on the console is kept until a segment asks for
/// a different one; the belt stopped at the machine or by its safety key pauses the
/// workout at once, and the control writes nothing more until the athlete starts the
/// belt again at the machine. A paused workout pauses the belt; resuming starts it; the
/// end stops it. A refusal (the result codes of 0x80) is said once per request, and the
/// workout goes on. What real machines do wrong (a speed write taken but ignored, a
/// walking pad's mph, inclines in whole percent, commands refused with the belt
/// standing) is found from the machine's own data, said once, and lived with.
@MainActor
public final class TreadmillControl: @preconcurrency SessionListener {
    private let scheduler: any Scheduler
    private let warn: (String) -> Void
    private let pauseWorkout: () -> Void
    private var device: (any TreadmillDevice)?
    private var speedRange: SupportedRange?
    private var inclineRange: SupportedRange?
    /// The ranges are read (or could not be) before any target is written.
    private var rangesRead = false
    private var inControl = false
    /// The belt runs as far as the control knows (started by it, or seen moving).
    private var started = false
    /// Stopped at the machine (its stop, its safety key): nothing is written until the
    /// athlete starts the belt again there.
    private var halted = false
    private var paused = false
    /// Our own stop or pause was written: the machine's status saying so is its echo, not the athlete.
    private var stopWritten = false
    private var ended = false
    private var target: TreadmillTarget?
    private var lastSpeed: Double?
    private var lastIncline: Double?
    /// A target write refused with the belt standing, to try again once it moves.
    private var waitingForBelt = false
    private var warned: Set<String> = []
    private var check: TimerToken?
    /// The treadmill's latest speed and incline, from its data.
    private var measuredSpeed: Double?
    private var measuredIncline: Double?
    /// A speed written before the machine's first data, its check timed from that data.
    private var awaitedSpeed: Double?
    /// Every speed and incline written, for tests: `speed 12`, `incline 2.5`, `start`, `pause`, `stop`.
    public private(set) var written: [String] = []

    /// Whether it writes at all (`--no-erg`: no); the machine's stop pauses the workout either way.
    private let steers: Bool

    /// `pause`: pauses the workout (the run's own pause, as the space key does).
    public init(steers: Bool = true, scheduler: any Scheduler, pause: @escaping () -> Void, warn: @escaping (String) -> Void) {
        self.steers = steers
        self.scheduler = scheduler
        pauseWorkout = pause
        self.warn = warn
    }

    /// A treadmill became live (again): read its ranges, then give it the target of the moment.
    public func attach(_ link: any TreadmillDevice) {
        guard steers, link.hasTreadmillControl else { return }
        device = link
        inControl = false
        lastSpeed = nil
        lastIncline = nil
        rangesRead = false
        link.readValue(SensorService.supportedSpeedRange) { [weak self] speed in
            link.readValue(SensorService.supportedInclinationRange) { [weak self] incline in
                guard let self, self.device === link else { return }
                self.speedRange = speed.flatMap { SupportedRange(speed: $0) }
                self.inclineRange = incline.flatMap { SupportedRange(inclination: $0) }
                self.rangesRead = true
                self.apply()
            }
        }
    }

    public func receive(_ event: Event) {
        switch event.kind {
        case .segmentStart:
            target = event.power?.treadmill
            if let capped = target?.capped, let held = target?.speed {
                once("max", "the segment's pace asks for \(Number.format(Number.rounded(capped, places: 1))) km/h; "
                     + "the treadmill is held at your max_speed, \(Number.format(held)) km/h")
            }
            apply()
        case .treadmill(let kmh):
            // Heart-rate steering: the segment's speed from now on.
            target = TreadmillTarget(speed: kmh, incline: target?.incline)
            apply()
        case .pause:
            paused = true
            apply()
        case .resume:
            paused = false
            apply()
        case .workoutEnd:
            paused = true
            ended = true
            stop()
            if let device, device.isLive, inControl, started, !halted {
                stopWritten = true
                write(FitnessMachineControl.stopBytes(pause: false), "stop")
                started = false
            }
        default:
            break
        }
    }

    /// Writes what changed: control first, the belt started, then the speed and incline
    /// that differ from the last written. Paused, the belt is paused.
    private func apply() {
        guard let device, device.isLive, rangesRead, !halted else { return }
        if paused {
            if started {
                stopWritten = true
                write(FitnessMachineControl.stopBytes(pause: true), "pause")
                started = false
            }
            return
        }
        guard let target else { return }
        if !inControl {
            write(FitnessMachineControl.requestControlBytes(), nil)
            inControl = true
        }
        if !started {
            stopWritten = false
            write(FitnessMachineControl.startBytes(), "start")
            started = true
        }
        if let speed = target.speed.map({ Number.rounded(speedRange?.clamped($0) ?? $0, places: 2) }), speed != lastSpeed {
            lastSpeed = speed
            write(FitnessMachineControl.targetSpeedBytes(speed), "speed \(Number.format(speed))")
            expect(speed)
        }
        if let incline = target.incline.map({ Number.rounded(inclineRange?.clamped($0) ?? $0, places: 1) }), incline != lastIncline {
            lastIncline = incline
            write(FitnessMachineControl.targetInclinationBytes(incline), "incline \(Number.format(incline))")
        }
    }

    private func write(_ bytes: [UInt8], _ record: String?) {
        if let record { written.append(record) }
        device?.writeControl(bytes) { [weak self] failure in
            self?.once("write", "the treadmill's control point failed (\(VisibleText.escape(failure.message))); "
                       + "the speed is yours")
        }
    }

    /// A belt ramps: it has a few seconds, and one more for each km/h of the change, to
    /// get to `speed`. If its data says otherwise then, it ignored the write (a firmware
    /// lock), or it counts in mph.
    private func expect(_ speed: Double) {
        if let check { scheduler.cancel(check) }
        check = nil
        // Before the machine's first data the change is not known: timed from that.
        guard let measuredSpeed else {
            awaitedSpeed = speed
            return
        }
        awaitedSpeed = nil
        let seconds = 5 + abs(speed - measuredSpeed)
        check = scheduler.scheduleAside(at: scheduler.time(afterReal: seconds)) { [weak self] _ in
            guard let self, !halted, !paused, lastSpeed == speed, let measured = self.measuredSpeed else { return }
            if abs(measured - speed) <= 0.15 { return }
            if abs(measured * 1.609344 - speed) <= 0.2 {
                once("mph", "the treadmill sends its speed in mph as if km/h (\(Number.format(measured)) for "
                     + "\(Number.format(speed)) km/h): its speed and pace read low; the workout goes on")
            } else {
                once("ignored", "the treadmill took the speed \(Number.format(speed)) km/h but stays at "
                     + "\(Number.format(measured)) km/h (its firmware may ignore speed writes): set it on the console; "
                     + "the workout goes on")
            }
        }
    }

    /// The treadmill's own data: what it really does.
    public func observe(_ sample: SensorSample) {
        if let speed = sample[.speed] {
            measuredSpeed = speed
            if let awaitedSpeed, awaitedSpeed == lastSpeed { expect(awaitedSpeed) }
            if speed > 0, waitingForBelt {
                waitingForBelt = false
                lastSpeed = nil
                lastIncline = nil
                apply()
            }
        }
        if let incline = sample[.incline] {
            measuredIncline = incline
            if let asked = lastIncline, abs(incline - asked) >= 0.1, incline == asked.rounded(), abs(incline - asked) < 1 {
                wholePercent(asked: asked, set: incline)
            }
        }
    }

    /// The treadmill's answer to a write: a refusal said once for each request.
    public func response(_ response: FitnessMachineControl.Response) {
        guard response.result != .success else { return }
        let what = switch response.request {
        case FitnessMachineControl.setTargetSpeed: "its target speed"
        case FitnessMachineControl.setTargetInclination: "its target incline"
        case FitnessMachineControl.startOrResume: "to start"
        case FitnessMachineControl.stopOrPause: "to stop"
        default: "control"
        }
        if response.result == .failed, measuredSpeed == 0 || measuredSpeed == nil,
           [FitnessMachineControl.setTargetSpeed, FitnessMachineControl.setTargetInclination].contains(response.request) {
            waitingForBelt = true
            once("moving", "the treadmill takes \(what) only with the belt moving; it is sent again once the belt moves")
            return
        }
        once("refused \(response.request)", "the treadmill refused \(what) (\(response.reason)); the speed is yours")
    }

    /// What changed on the machine: the athlete's stop or the safety key pause the workout
    /// at once; a speed set on the console is kept.
    public func status(_ status: FitnessMachineStatus) {
        switch status {
        case .stoppedByUser where stopWritten, .safetyKey where ended, .stoppedByUser where ended:
            // The echo of our own stop or pause, or the belt stopped after the workout ended.
            break
        case .safetyKey, .stoppedByUser:
            guard !halted else { return }
            halted = true
            started = false
            inControl = false
            if let check { scheduler.cancel(check) }
            let why = status == .safetyKey ? "its safety key was pulled" : "it was stopped at the machine"
            warn("the treadmill stopped: \(why); the workout is paused, and it sets no speed until you start "
                 + "the belt at the machine")
            pauseWorkout()
        case .startedByUser:
            guard halted else { return }
            halted = false
            started = true
            // The athlete set the belt going: what it runs at is theirs until a segment asks for another speed.
            lastSpeed = measuredSpeed ?? lastSpeed
        case .targetSpeed(let speed):
            guard let last = lastSpeed, abs(speed - last) > 0.05 else { return }
            // Set on the console: kept, not fought; the next segment with a target of its own sets its own.
            lastSpeed = speed
        case .targetInclination(let incline):
            guard let last = lastIncline, abs(incline - last) > 0.05 else { return }
            // The machine's own rounding of what was written, not the athlete's change.
            if abs(incline - last) < 1, incline == last.rounded() { return wholePercent(asked: last, set: incline) }
            lastIncline = incline
        case .controlLost:
            inControl = false
        case .other:
            break
        }
    }

    private func wholePercent(asked: Double, set: Double) {
        once("whole", "the treadmill sets its incline in whole percent: \(Number.format(asked)) % is \(Number.format(set)) %")
    }

    private func once(_ key: String, _ text: String) {
        guard warned.insert(key).inserted else { return }
        warn(text)
    }

    public func stop() {
        if let check { scheduler.cancel(check) }
        check = nil
    }

    isolated deinit {
        if let check { scheduler.cancel(check) }
    }
}
