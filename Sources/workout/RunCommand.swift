import ArgumentParser
import Display
import Foundation
import IntervalEngine

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a workout.",
        discussion: """
            On a terminal it shows a live full-screen display (keys: space pause/resume, n next, \
            b back, +/- 10 s, q quit, ? help); otherwise it prints one line per event, \
            or with --json one JSON object per line. Exit status: 0 finished or quit, \
            1 the routine failed to load or a hook raised an error, 64 usage error, \
            130 interrupted (SIGINT), 143 terminated (SIGTERM).
            """)

    /// A path, or a name in your programs directory or among the bundled programs.
    @Argument(help: "The routine: a path, or a name such as 'hiit' (see `workout list`).", completion: .routine)
    var routine: String

    @OptionGroup var parameters: ParameterOptions

    /// Makes demos and tests fast; events still report workout seconds.
    @Option(help: "Run X times faster (workout seconds per real second).")
    var speed: Double = 1

    @Flag(help: "Print one JSON object per event, one per line.")
    var json = false

    @Flag(help: "Run the whole workout instantly on a virtual clock: hooks run, nothing sounds, no history.")
    var dryRun = false

    @Flag(help: "No terminal bell at boundaries and for the countdown.")
    var noBell = false

    @Flag(inversion: .prefixedNo,
          help: "Desktop notifications at each segment (default: on when a session bus and notify-send exist).")
    var notify: Bool?

    @Flag(help: "Speak each segment's name, the countdown and text cues (spd-say or espeak-ng).")
    var voice = false

    @Flag(help: "Show elapsed time in the segment instead of time remaining.")
    var countUp = false

    @Flag(help: "Do not record this session in the history ($XDG_DATA_HOME/workout/history.jsonl).")
    var noHistory = false

    /// Only a dry run needs it: a real open-ended workout runs until you quit.
    @OptionGroup var horizon: HorizonOption

    @OptionGroup(title: "Limits")
    var limits: LimitOptions

    func validate() throws {
        guard speed.isFinite, speed > 0, speed <= 10_000 else {
            throw ValidationError("--speed must be a number above 0 and at most 10000, got \(speed)")
        }
        if horizon.horizon != nil && !dryRun {
            throw ValidationError("--horizon goes with --dry-run: a real open-ended workout runs until you quit")
        }
    }

    func run() throws {
        let loaded = try RoutineLookup.loadOrFail(routine, settings: parameters.settings, limits: limits.limits)
        let outcome = dryRun ? runVirtually(loaded) : runForReal(loaded)
        throw ExitCode(outcome)
    }

    private var sessionOptions: SessionOptions {
        let wantsNotify = notify ?? SystemAlerts.notificationsAvailable()
        return SessionOptions(bell: !noBell, notify: wantsNotify && !dryRun, voice: voice, payloadsInEvents: json)
    }

    /// Prints events as the output mode wants (each line through `line`); remembers
    /// whether a hook failed.
    private func printer(errors: MainThreadBox<Int>, display: MainThreadBox<LiveDisplay?>,
                         line: @escaping (String) -> Void = Output.line) -> (Event) -> Void {
        let json = json
        return { event in
            if case .error = event.kind { errors.value += 1 }
            if json {
                line(event.json.text)
            } else if let live = display.value {
                live.handle(event)
            } else {
                line(PlainText.line(event))
            }
        }
    }

    /// `--dry-run`: the virtual clock runs everything at once. A pause from a hook is
    /// resumed straight away so the run always ends; an open-ended workout stops at the
    /// horizon (each segment is at most a day long, so that bounds it too).
    private func runVirtually(_ routine: Routine) -> Int32 {
        let clock = VirtualClock()
        routine.horizon = horizon.segments
        let errors = MainThreadBox(0)
        // Nothing is real-time here, so the events go out in blocks.
        let output = BlockOutput()
        defer { output.flush() }
        let session = Session(routine: routine, scheduler: clock, options: sessionOptions,
                              onEvent: printer(errors: errors, display: MainThreadBox(nil), line: output.line))
        session.start()
        // Hooks that extend forever would never end: stop a day past the plan.
        let limit = routine.timeline.isOpenEnded ? .infinity : routine.timeline.duration + Duration.maximum
        var lastPause = -1.0
        var pausesNow = 0
        while session.state != .finished {
            if !clock.run(until: limit) {
                session.stop()
                output.flush()
                Output.error("workout: the dry run was still going a day past the planned end; stopped")
                return 1
            }
            if session.state == .paused {
                // A hook that pauses again on every resume would loop here for ever.
                pausesNow = clock.now == lastPause ? pausesNow + 1 : 0
                lastPause = clock.now
                if pausesNow > 1_000 {
                    session.stop()
                    output.flush()
                    Output.error("workout: the dry run paused again on each resume (a hook calls pause() in on_resume?); stopped")
                    return 1
                }
                session.resume()
            }
        }
        output.flush()
        if routine.timeline.reachedHorizon {
            Output.error("workout: \(routine.fileName) is open-ended; the dry run stopped after "
                         + "\(routine.timeline.count) segments (--horizon N for more)")
        }
        return errors.value > 0 ? 1 : 0
    }

    private func runForReal(_ routine: Routine) -> Int32 {
        let scheduler = RunLoopScheduler(speed: speed)
        let errors = MainThreadBox(0)
        let interactive = !json && Terminal.isInteractive
        let options = sessionOptions
        let display = MainThreadBox<LiveDisplay?>(nil)
        // Alert programs report failures from another thread: warn on the main queue,
        // where the display lives.
        let alerts = SystemAlerts(notify: options.notify) { text in
            DispatchQueue.main.async {
                if let live = display.value { live.warn("workout: \(text)") } else { Output.error("workout: \(text)") }
            }
        }
        let session = Session(routine: routine, scheduler: scheduler, alerts: alerts, options: options,
                              onEvent: printer(errors: errors, display: display))
        if interactive {
            display.value = LiveDisplay(session: session, scheduler: scheduler, countUp: countUp,
                                        color: Terminal.usesColor, glyphs: Glyphs.forLocale(Terminal.environment))
        }
        let finished = MainThreadBox(false)
        let signal = MainThreadBox<Int32?>(nil)
        session.onFinish = { _ in
            finished.value = true
            MainLoop.wake()
        }
        let box = MainThreadBox(session)
        let trapped = interactive ? [SIGINT, SIGTERM, SIGTSTP, SIGCONT, SIGWINCH] : [SIGINT, SIGTERM]
        let traps = SignalTraps(trapped) { number in
            switch number {
            case SIGTSTP:
                box.value.pause()
                display.value?.suspend()
                SignalTraps.stopProcess()
                display.value?.resume()
            case SIGCONT:
                display.value?.resume()
            case SIGWINCH:
                display.value?.resized()
            default:
                signal.value = number
                box.value.stop()
            }
        }
        let started = Date()
        display.value?.open()
        defer { display.value?.close() }
        session.start()
        MainLoop.run { finished.value }
        withExtendedLifetime(traps) {}
        alerts.waitForNotifications(timeout: 2)
        if let live = display.value {
            live.close()
            for error in live.errors {
                Output.error("workout: \(error)")
            }
            if let summary = session.summary {
                Output.line(summaryLine(routine, summary))
            }
        }
        if let summary = session.summary {
            recordHistory(routine, summary, started: started, ended: Date())
        }
        if let number = signal.value { return 128 + number }
        return errors.value > 0 ? 1 : 0
    }

    private func summaryLine(_ routine: Routine, _ summary: Summary) -> String {
        let verb = summary.completed ? "Finished" : "Stopped"
        return "\(verb) \(routine.name) in \(TimeText.clock(summary.elapsed)): "
            + "\(summary.segmentsDone)/\(summary.segments) segments (\(summary.segmentsSkipped) skipped), "
            + "\(TimeText.clock(summary.workSeconds)) of work"
    }
}
