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
            or with --json one JSON object per line (keys then work followed by Enter, \
            when standard input is a terminal). Exit status: 0 finished or quit, \
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

    /// Nil: on, but off in a dry run.
    @Flag(inversion: .prefixedNo,
          help: "The terminal bell at boundaries and for the countdown (default: on; in a dry run, off).")
    var bell: Bool?

    @Flag(help: "No flash of the display's band at boundaries and for the countdown.")
    var noFlash = false

    @Flag(help: "The display without the band of the kind's colour: colour only on the kind's label and digits.")
    var calm = false

    @Flag(inversion: .prefixedNo,
          help: "Desktop notifications at each segment (default: on when a session bus and notify-send exist).")
    var notify: Bool?

    @Flag(help: "Speak each segment's name, the countdown and text cues (spd-say or espeak-ng).")
    var voice = false

    @Flag(help: "Show elapsed time in the segment instead of time remaining.")
    var countUp = false

    @Flag(help: "Do not record this session in the history ($XDG_DATA_HOME/workout/history.jsonl).")
    var noHistory = false

    @OptionGroup(title: "Serving")
    var serving: ServeOptions

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
        if serving.serve != nil && dryRun {
            throw ValidationError("--serve goes with a real run, not --dry-run")
        }
    }

    func run() throws {
        let loaded = try RoutineLookup.loadOrFail(routine, settings: parameters.settings, limits: limits.limits)
        let outcome = dryRun ? runVirtually(loaded) : runForReal(loaded)
        throw ExitCode(outcome)
    }

    /// The one switchboard's answer for this run; `display`: the live display is shown.
    private func alertSwitches(display: Bool) -> AlertSwitches {
        AlertSwitches.decide(bell: bell, notify: notify, voice: voice, noFlash: noFlash, display: display,
                             dryRun: dryRun, environment: Terminal.environment)
    }

    /// `--dry-run`: the virtual clock runs everything at once, silently, unrecorded. An
    /// open-ended workout stops at the horizon (each segment is at most a day long, so
    /// that bounds it too).
    private func runVirtually(_ routine: Routine) -> Int32 {
        let clock = VirtualClock()
        routine.horizon = horizon.segments
        let errors = ErrorCount()
        // Nothing is real-time here, so the events go out in blocks.
        let output = BlockOutput()
        defer { output.flush() }
        let session = Session(routine: routine, scheduler: clock,
                              options: SessionOptions(alerts: alertSwitches(display: false), payloadsInEvents: json))
        session.subscribe(EventPrinter(json ? .json : .plain, line: output.line))
        session.subscribe(errors)
        // Hooks that extend forever would never end: stop a day past the plan.
        let limit = routine.timeline.isOpenEnded ? .infinity : routine.timeline.duration + Duration.maximum
        switch DryRun.run(session, on: clock, until: limit) {
        case .finished:
            break
        case .ranPastLimit:
            output.flush()
            Output.error("workout: the dry run was still going a day past the planned end; stopped")
            return 1
        case .pausedOnEveryResume:
            output.flush()
            Output.error("workout: the dry run paused again on each resume (a hook calls pause() in on_resume?); stopped")
            return 1
        }
        output.flush()
        if routine.timeline.reachedHorizon {
            Output.error("workout: \(routine.fileName) is open-ended; the dry run stopped after "
                         + "\(routine.timeline.count) segments (--horizon N for more)")
        }
        return errors.value > 0 ? 1 : 0
    }

    /// A real run. Every listener is wired here, in the order they hear each event: the
    /// output (JSON, plain lines or the live display), the error count, the alert player
    /// and the history recorder; the keys and signals are its controllers.
    private func runForReal(_ routine: Routine) -> Int32 {
        let scheduler = RunLoopScheduler(speed: speed)
        let interactive = !json && Terminal.isInteractive
        let switches = alertSwitches(display: interactive)
        // A web page shows the segment's info: the feed's events carry it as --json's do.
        let session = Session(routine: routine, scheduler: scheduler,
                              options: SessionOptions(alerts: switches, payloadsInEvents: json || serving.serve != nil))
        let server = MainThreadBox<(any WorkoutServer)?>(nil)
        // Keys and web buttons alike: the same command, then viewers hear of the change.
        let control: (SessionCommand) -> Void = { command in
            session.apply(command)
            server.value?.commandApplied()
        }
        let display = MainThreadBox<LiveDisplay?>(nil)
        var lineKeys: KeyReader?
        if interactive {
            let live = LiveDisplay(snapshot: session.snapshot, control: control, scheduler: scheduler,
                                   countUp: countUp, color: Terminal.usesColor, band: !calm, flashes: switches.flash,
                                   glyphs: Glyphs.forLocale(Terminal.environment))
            display.value = live
            session.subscribe(live)
        } else {
            session.subscribe(EventPrinter(json ? .json : .plain))
            // A terminal without the display (TERM=dumb) still takes keys, a line at a
            // time: q then Enter quits.
            if Terminal.hasKeyboard {
                lineKeys = KeyReader { action in
                    if case .session(let command) = action { control(command) }
                }
            }
        }
        if let address = serving.address {
            switch startServing(on: address, session: session, control: control) {
            case .success(let started): server.value = started
            case .failure(let error): return error.exitStatus
            }
            session.subscribe(server.value!.listener)
            announce(server.value!, display: display.value)
        }
        let errors = ErrorCount()
        session.subscribe(errors)
        // Alert programs report failures from another thread: warn on the main queue,
        // where the display lives.
        let alerts = SystemAlerts(switches: switches, environment: Terminal.environment) { text in
            DispatchQueue.main.async {
                if let live = display.value { live.warn("workout: \(text)") } else { Output.error("workout: \(text)") }
            }
        }
        session.subscribe(AlertListener(player: alerts, switches: switches))
        let history = noHistory ? nil : HistoryRecorder(routine: routine, file: HistoryFile(), progress: session.progress)
        if let history { session.subscribe(history) }
        let finished = MainThreadBox(false)
        session.subscribe { event in
            guard case .workoutEnd = event.kind else { return }
            finished.value = true
            MainLoop.wake()
        }
        let signal = MainThreadBox<Int32?>(nil)
        let box = MainThreadBox(session)
        let trapped = interactive ? [SIGINT, SIGTERM, SIGTSTP, SIGCONT, SIGWINCH] : [SIGINT, SIGTERM]
        let traps = SignalTraps(trapped) { number in
            switch number {
            case SIGTSTP:
                box.value.apply(.pause)
                display.value?.suspend()
                SignalTraps.stopProcess()
                display.value?.resume()
            case SIGCONT:
                display.value?.resume()
            case SIGWINCH:
                display.value?.resized()
            default:
                signal.value = number
                box.value.apply(.quit)
            }
        }
        display.value?.open()
        defer { display.value?.close() }
        session.start()
        MainLoop.run { finished.value }
        server.value?.finish(within: 1)
        withExtendedLifetime(traps) {}
        lineKeys?.stop()
        alerts.waitForNotifications(timeout: 2)
        alerts.stop()
        if let live = display.value {
            live.close()
            // Below the summary, on the normal screen: what on_finish printed, then the
            // run's warnings and errors, none of which the closed display shows any more.
            if let summary = session.summary {
                Output.line(SummaryText.line(routine: routine.name, summary))
            }
            for line in live.finishLines {
                Output.line(line)
            }
            for warning in live.warnings {
                Output.error(warning)
            }
            for error in live.errors {
                Output.error("workout: \(error)")
            }
        }
        if let failure = history?.failure {
            Output.error("workout: \(failure)")
        }
        if let number = signal.value { return 128 + number }
        return errors.value > 0 ? 1 : 0
    }

    /// The server of `--serve`, listening before the workout starts; its errors are
    /// printed here, before the display takes the screen.
    private func startServing(on address: ServeAddress, session: Session,
                              control: @escaping (SessionCommand) -> Void) -> Result<any WorkoutServer, ServeError> {
        guard let starter = Serving.starter else {
            Output.error("workout: this binary cannot serve: run workout, which hands --serve to workout-serve")
            return .failure(.failure("no server"))
        }
        do throws(ServeError) {
            return .success(try starter(ServeRequest(address: address, renewToken: serving.newToken,
                                                     environment: Terminal.environment,
                                                     snapshot: session.snapshot, control: control)))
        } catch {
            Output.error("workout: \(error.message)")
            return .failure(error)
        }
    }

    /// The page's URL: a `serve` event before `workout_start` with --json, a line on
    /// standard error in plain mode, a QR code on the live display.
    private func announce(_ server: any WorkoutServer, display: LiveDisplay?) {
        if let display {
            display.invitation = Invitation(url: server.url, modules: server.qrModules)
        } else if json {
            Output.line(JSONValue.object([("event", .string("serve")), ("t", .integer(0)),
                                          ("url", .string(server.url))]).text)
        } else {
            Output.error("workout: follow and control this workout at \(server.url)")
        }
    }
}

extension ServeError {
    var exitStatus: Int32 {
        switch self {
        case .usage: ExitCode.validationFailure.rawValue
        case .failure: ExitCode.failure.rawValue
        }
    }
}
