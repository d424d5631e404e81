import ArgumentParser
import Display
import Foundation
import IntervalEngine
import SoundServer

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
            129 the terminal closed (SIGHUP), 130 interrupted (SIGINT), 131 quit (SIGQUIT), \
            141 standard output closed (its reader left), 143 terminated (SIGTERM).
            """)

    /// A path, or a name in your programs directory or among the bundled programs.
    @Argument(help: "The routine: a path, or a name such as 'hiit' (see `workout list`).", completion: .routine)
    var routine: String

    @OptionGroup var parameters: ParameterOptions

    /// Makes demos and tests fast; events still report workout seconds.
    @Option(help: "Run X times faster (workout seconds per real second), from 0.01 to 10000.")
    var speed = RunRequest.standard.speed

    @Flag(help: "Print one JSON object per event, one per line.")
    var json = false

    @Flag(help: "Run the whole workout instantly on a virtual clock: hooks run, nothing sounds, no history.")
    var dryRun = false

    /// Nil: on where no sound plays, but off in a dry run.
    @Flag(inversion: .prefixedNo,
          help: "The terminal bell at boundaries and for the countdown (default: where no sound plays; in a dry run, off).")
    var bell: Bool?

    @Flag(help: "No sounds (default: on where a sound server answers; the terminal bell stands in).")
    var noSound = false

    @Option(help: "The sounds' volume, 0 to 100.")
    var volume = RunRequest.standard.volume

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

    @Flag(help: "Show tenths of a second in each segment's last 3 seconds (0:02.5), here and on the web page.")
    var tenths = false

    @Flag(help: "Do not record this session in the history ($XDG_DATA_HOME/workout/history.jsonl).")
    var noHistory = false

    /// Off by default: a laptop that suspends mid-workout is what it guards against.
    @Flag(help: "Let the computer sleep during the workout (by default workout asks logind to keep it awake).")
    var allowSleep = false

    @OptionGroup(title: "Serving")
    var serving: ServeOptions

    /// Only a dry run needs it: a real open-ended workout runs until you quit.
    @OptionGroup var horizon: HorizonOption

    @OptionGroup(title: "Limits")
    var limits: LimitOptions

    func validate() throws {
        try request.validate()
    }

    func run() throws {
        try request.run()
    }

    /// What the options ask for, as a plain value: the run itself reads only this, so
    /// `QuickRunArguments` can make it without ArgumentParser's parse (docs/design.md).
    var request: RunRequest {
        RunRequest(routine: routine, settings: parameters.settings, speed: speed, json: json, dryRun: dryRun,
                   bell: bell, noSound: noSound, volume: volume, noFlash: noFlash, calm: calm, notify: notify,
                   voice: voice, countUp: countUp, tenths: tenths, noHistory: noHistory, allowSleep: allowSleep,
                   serveAddress: serving.address, newToken: serving.newToken, horizon: horizon.horizon,
                   limits: limits.limits)
    }
}

/// Running what a `RunRequest` asks for: a dry run on the virtual clock, or a real run
/// with every listener wired.
extension RunRequest {
    func run() throws {
        let loaded = try RoutineLookup.loadOrFail(routine, settings: settings, limits: limits)
        let outcome = dryRun ? runVirtually(loaded) : runForReal(loaded)
        throw ExitCode(outcome)
    }

    /// The one switchboard's answer for this run; `display`: the live display is shown;
    /// `soundServer`: one answered.
    private func alertSwitches(display: Bool, soundServer: Bool = false) -> AlertSwitches {
        AlertSwitches.decide(bell: bell, sound: !noSound && soundServer, notify: notify, voice: voice,
                             noFlash: noFlash, display: display, dryRun: dryRun, environment: Terminal.environment)
    }

    /// `--dry-run`: the virtual clock runs everything at once, silently, unrecorded. An
    /// open-ended workout stops at the horizon (each segment is at most a day long, so
    /// that bounds it too).
    private func runVirtually(_ routine: Routine) -> Int32 {
        let clock = VirtualClock()
        routine.horizon = horizon ?? Timeline.defaultHorizon
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
    /// output (JSON, plain lines or the live display), the error count, the sound player,
    /// the alert player and the history recorder; the keys and signals are its controllers.
    private func runForReal(_ routine: Routine) -> Int32 {
        let scheduler = RunLoopScheduler(speed: speed)
        let interactive = !json && Terminal.isInteractive
        let display = MainThreadBox<LiveDisplay?>(nil)
        // Alert programs and the sound player report failures from other threads: warn on
        // the main queue, where the display lives.
        let warn: @Sendable (String) -> Void = { text in
            DispatchQueue.main.async {
                if let live = display.value { live.warn("workout: \(text)") } else { Output.error("workout: \(text)") }
            }
        }
        let sound = noSound ? nil : connectSound(warn: warn)
        let switches = alertSwitches(display: interactive, soundServer: sound != nil)
        // A web page shows the segment's info: the feed's events carry it as --json's do.
        let session = Session(routine: routine, scheduler: scheduler,
                              options: SessionOptions(alerts: switches, payloadsInEvents: json || serveAddress != nil,
                                                      tenths: tenths))
        let server = MainThreadBox<(any WorkoutServer)?>(nil)
        // Keys and web buttons alike: the same command, then viewers hear of the change.
        let control: (SessionCommand) -> Void = { command in
            session.apply(command)
            server.value?.commandApplied()
        }
        let stream = interactive ? nil : EventStream()
        var lineKeys: KeyReader?
        if interactive {
            let live = LiveDisplay(snapshot: session.snapshot, control: control, scheduler: scheduler,
                                   countUp: countUp, color: Terminal.usesColor, band: !calm, flashes: switches.flash,
                                   glyphs: Glyphs.forLocale(Terminal.environment))
            display.value = live
            session.subscribe(live)
        } else {
            if let stream { session.subscribe(EventPrinter(json ? .json : .plain, line: stream.line)) }
            // A terminal without the display (TERM=dumb) still takes keys, a line at a
            // time: q then Enter quits.
            if Terminal.hasKeyboard {
                lineKeys = KeyReader { action in
                    if case .session(let command) = action { control(command) }
                }
            }
        }
        if let address = serveAddress {
            switch startServing(on: address, session: session, control: control) {
            case .success(let started): server.value = started
            case .failure(let error): return error.exitStatus
            }
            session.subscribe(server.value!.listener)
            announce(server.value!, display: display.value)
        }
        let errors = ErrorCount()
        session.subscribe(errors)
        let alerts = SystemAlerts(switches: switches, environment: Terminal.environment, warn: warn)
        if let sound { session.subscribe(SoundListener(output: sound) { alerts.bell() }) }
        // After the SoundListener: a moment's tone with its words replaces the tone alone.
        let spoken = spokenSounds(sound, switches: switches, alerts: alerts, warn: warn)
        if let spoken { session.subscribe(spoken) }
        session.subscribe(AlertListener(player: alerts, switches: switches, speechElsewhere: spoken != nil))
        let history = noHistory ? nil : HistoryRecorder(routine: routine, file: HistoryFile(environment: Terminal.environment),
                                                        progress: session.progress)
        if let history { session.subscribe(history) }
        let finished = MainThreadBox(false)
        session.subscribe { event in
            guard case .workoutEnd = event.kind else { return }
            finished.value = true
            MainLoop.wake()
        }
        let signal = MainThreadBox<Int32?>(nil)
        let box = MainThreadBox(session)
        // Standard output gone (a reader that left, a closed terminal): nothing more can be
        // shown, so the workout ends here, recorded as not completed.
        Output.onFailure = {
            DispatchQueue.main.async { box.value.apply(.quit) }
        }
        let trapped = SignalTraps.stopping + (interactive ? [SIGTSTP, SIGCONT, SIGWINCH] : [])
        let traps = SignalTraps(trapped) { number in
            switch number {
            case SIGTSTP:
                box.value.apply(.pause)
                if ProcessGroup.isOrphaned {
                    // No shell could continue a stopped workout: it stays on screen, paused.
                    display.value?.warn("workout: paused; Ctrl-Z cannot stop a workout no shell started (space goes on)")
                } else {
                    display.value?.suspend()
                    SignalTraps.stopProcess()
                    display.value?.resume()
                }
            case SIGCONT:
                display.value?.resume()
            case SIGWINCH:
                display.value?.resized()
            default:
                // The count hook has stopped any Lua that was running; the hooks that run
                // while the workout ends (on_finish) run normally.
                LuaInterrupt.clear()
                signal.value = number
                box.value.apply(.quit)
            }
        }
        let awake = allowSleep ? nil : SleepInhibitor()
        awake?.hold(why: "\(routine.name) is running", environment: Terminal.environment)
        display.value?.open()
        defer { display.value?.close() }
        session.start()
        MainLoop.run { finished.value }
        awake?.release()
        // A reader that is slow gets the rest; one that never reads is given up on when a
        // signal asks the process to stop (or at once after such a signal).
        if let stream, signal.value == nil {
            stream.drain { LuaInterrupt.isRequested }
        }
        server.value?.finish(within: 1)
        withExtendedLifetime(traps) {}
        lineKeys?.stop()
        alerts.waitForNotifications(timeout: 2)
        spoken?.stop()
        alerts.stop()
        sound?.close(timeout: 3)  // the finish chime is still ringing
        if let live = display.value {
            live.close()
            // Below the summary, on the normal screen: what on_finish printed, then the
            // run's warnings and errors, none of which the closed display shows any more.
            if let summary = session.summary {
                Output.line(SummaryText.line(routine: routine.name.visible, summary))
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
        if let dropped = stream?.dropped, dropped > 0 {
            Output.error("workout: the reader of standard output fell behind; \(dropped) event line\(dropped == 1 ? " was" : "s were") not written")
        }
        if let number = signal.value ?? SignalTraps.received { return 128 + number }
        return errors.value > 0 ? 1 : 0
    }

    /// `--voice` through the sound player, where one plays and espeak-ng exists; else nil,
    /// and speech is said aloud (spd-say, or espeak-ng) as the alert player does it.
    private func spokenSounds(_ sound: PulseOutput?, switches: AlertSwitches, alerts: SystemAlerts,
                              warn: @escaping @Sendable (String) -> Void) -> SpokenSounds? {
        guard switches.voice, switches.sound, let sound,
              let espeak = ExecutableSearch.find("espeak-ng", environment: Terminal.environment) else { return nil }
        return SpokenSounds(output: sound, renderer: espeak, fallback: { alerts.say($0) }, warn: warn)
    }

    /// The sound server, or nil with one warning: the bell stands in (unless --no-bell).
    /// A server that goes away later gives the same warning, once.
    private func connectSound(warn: @escaping @Sendable (String) -> Void) -> PulseOutput? {
        let standIn = bell == false ? "; sounds are off" : "; the terminal bell stands in for sounds"
        switch PulseOutput.connect(volume: Double(volume) / 100, warn: { warn($0 + standIn) }) {
        case .success(let output):
            return output
        case .failure(let failure):
            warn("sound: \(failure.reason)" + standIn)
            return nil
        }
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
            return .success(try starter(ServeRequest(address: address, renewToken: newToken,
                                                     environment: Terminal.environment,
                                                     snapshot: session.snapshot, control: control,
                                                     stopped: serveStopped)))
        } catch {
            Output.error("workout: \(error.message)")
            return .failure(error)
        }
    }

    /// A server that stopped while the workout goes on: a `serve_stopped` event with
    /// --json, and a warning (on the display, or standard error).
    private func serveStopped(_ reason: String) {
        if json {
            Output.line(JSONValue.object([("event", .string("serve_stopped")), ("reason", .string(reason))]).text)
        }
        Output.error("workout: --serve: \(reason); the workout goes on without the page")
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
