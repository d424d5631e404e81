import Activity
import BlueZ
import Broker
import ClassPublishing
import DBus
import Display
import Foundation
import History
import IntervalEngine
import LuaBridge
import Music
import Platform
import Serving
import SoundPlayer
import WorkoutValues

/// A real run, assembled: the session and every listener and controller its
/// `RunRequest` asks for, built here in the order the listeners hear each event — the
/// output (the live display, or `--json`/plain lines), the server of `--serve`, the
/// error count, the sound player and spoken words, the alert player, the activity and history
/// recorders, the end of the run loop — then the controllers (keys, signals, standard
/// output's failure) and the sleep inhibitor. `run()` starts the session, turns the run
/// loop until `workout_end`, and takes it all down in the matching order
/// (`RunAssembly+Teardown.swift`). All of it lives on the main thread.
@MainActor
final class RunAssembly {
    let request: RunRequest
    let routine: Routine
    let scheduler: RunLoopScheduler
    let session: Session
    /// The live display, when the terminal shows one.
    let display: LiveDisplay?
    /// `--json` or plain lines, when there is no display.
    let stream: EventStream?
    /// A terminal without the display (TERM=dumb) still takes keys, a line at a time.
    private(set) var lineKeys: KeyReader?
    private(set) var server: (any WorkoutServer)?
    /// The session on an MQTT broker (`--mqtt`).
    private(set) var publisher: SessionPublisher?
    /// The class's participants heard on the broker (`--mqtt`).
    let roster: ClassRoster?
    let errors = ErrorCount()
    let sound: PulseOutput?
    let alerts: SystemAlerts
    let spoken: SpokenSounds?
    /// The music players lowered under the cues (`--music`), where a session bus is.
    let music: (players: MediaPlayers, cues: MusicUnderCues)?
    let history: HistoryRecorder?
    /// Bluetooth sensors and a trainer, when the run has any (`--sensor`, or remembered).
    let sensors: SensorHub?
    /// The session's samples, kept when sensors give any.
    let activity: ActivityRecorder?
    /// Set at `workout_end`, when the run loop may stop.
    let finished = MainThreadBox(false)
    /// The stopping signal that ended the run, if one did.
    let signal: MainThreadBox<Int32?>
    private(set) var traps: SignalTraps?
    let awake: SleepInhibitor?

    /// Builds it all; a server that cannot start is an error (printed here, before the
    /// display takes the screen), with the exit status it asks for. `origin`: where the
    /// clock reads 0, for `workout follow` (the coach's start); now by default.
    init(_ request: RunRequest, routine: Routine, serving starter: ServeStarter?, origin: UInt64? = nil) throws(ServeError) {
        self.request = request
        self.routine = routine
        scheduler = RunLoopScheduler(speed: request.speed, origin: origin)
        let interactive = !request.json && Terminal.isInteractive
        // Alert programs and the sound player report failures from other threads: warn on
        // the main queue, where the display lives.
        let displayBox = MainThreadBox<LiveDisplay?>(nil)
        let sessionBox = MainThreadBox<Session?>(nil)
        let serverBox = MainThreadBox<(any WorkoutServer)?>(nil)
        let publisherBox = MainThreadBox<SessionPublisher?>(nil)
        let signal = MainThreadBox<Int32?>(nil)
        self.signal = signal
        // Trapped before anything is started (the sound server's stream, a server, the
        // broker): a signal from here on ends the run cleanly, with its exit status,
        // once the main queue turns; the boxes are filled as their parts are built.
        traps = Self.trapSignals(interactive: interactive, session: sessionBox, display: displayBox,
                                 server: serverBox, publisher: publisherBox, signal: signal)
        let warn: @Sendable (String) -> Void = { text in
            DispatchQueue.main.async {
                if let live = displayBox.value { live.warn("workout: \(text)") } else { Output.error("workout: \(text)") }
            }
        }
        sound = request.noSound ? nil : Self.connectSound(request, warn: warn)
        sound?.prepare(routine.fileSounds)
        let switches = request.alertSwitches(display: interactive, soundServer: sound != nil)
        let sensorAddresses = Self.sensorAddresses(request, warn: warn)
        // A web page shows the segment's info: the feed's events carry it as --json's do.
        var options = SessionOptions(alerts: switches,
                                     payloadsInEvents: request.json || request.serveAddress != nil || request.mqtt != nil,
                                     tenths: request.tenths, athlete: request.athlete)
        // A trainer's ERG target comes with each segment's start.
        options.powerInEvents = !sensorAddresses.isEmpty && !request.noErg
        session = Session(routine: routine, scheduler: scheduler, options: options)
        let session = session
        sessionBox.value = session
        roster = request.mqtt.map { ClassRoster(topics: ClassTopics(prefix: $0.prefix), warn: warn) }
        // Keys, web buttons and the broker's commands alike: the same command, then viewers
        // hear of the change once.
        let control: @MainActor @Sendable (SessionCommand) -> Void = { command in
            session.apply(command)
            serverBox.value?.commandApplied()
            publisherBox.value?.commandApplied()
        }
        if interactive {
            let live = LiveDisplay(snapshot: session.snapshot, control: control, scheduler: scheduler,
                                   countUp: request.countUp, color: Terminal.usesColor, band: !request.calm,
                                   glyphs: Glyphs.forLocale(Terminal.environment))
            if let roster { live.participants = { ClassBand(roster) } }
            displayBox.value = live
            display = live
            stream = nil
            session.subscribe(live)
        } else {
            display = nil
            let stream = EventStream()
            self.stream = stream
            session.subscribe(EventPrinter(request.json ? .json : .plain, line: stream.line))
        }
        if let address = request.serveAddress {
            let started = try Self.startServing(request, on: address, session: session, control: control,
                                                roster: roster, starter: starter, warn: warn)
            serverBox.value = started
            server = started
            session.subscribe(started.listener)
        }
        if let address = request.mqtt {
            let started = try Self.startPublishing(on: address, session: session, scheduler: scheduler, control: control,
                                                   roster: roster, warn: warn)
            publisherBox.value = started
            publisher = started
            session.subscribe(started)
        }
        session.subscribe(errors)
        alerts = SystemAlerts(switches: switches, environment: Terminal.environment, warn: warn)
        let alerts = alerts
        if let sound {
            let bellStandsIn = session.alertPolicy.bellStandsInForSound
            session.subscribe(SoundListener(output: sound) { if bellStandsIn { alerts.bell() } })
        }
        // After the SoundListener: a moment's tone with its words replaces the tone alone.
        spoken = Self.spokenSounds(sound, switches: switches, alerts: alerts, warn: warn)
        if let spoken { session.subscribe(spoken) }
        session.subscribe(AlertListener(player: alerts, speechElsewhere: spoken != nil))
        music = Self.musicUnderCues(request, heard: switches.sound || switches.voice, scheduler: scheduler)
        if let music { session.subscribe(music.cues) }
        let historyFile = request.history ?? HistoryFile(environment: Terminal.environment)
        // Samples go beside the history, and only where a session is recorded.
        activity = request.noHistory ? nil : ActivityRecorder(beside: historyFile)
        if let activity { session.subscribe(activity) }
        history = request.noHistory ? nil
            : HistoryRecorder(routine: routine, file: historyFile, activity: activity)
        if let history { session.subscribe(history) }
        if let roster { history?.participantTotals = roster.summaries }
        sensors = Self.connectSensors(request, addresses: sensorAddresses, session: session, scheduler: scheduler,
                                      pause: { control(.pause) }, warn: warn)
        Self.warnOfDistanceSteps(session, sensors: !sensorAddresses.isEmpty, scheduler: scheduler, warn: warn)
        if sensors != nil { history?.sensorTotals = session.sensorTotals }
        if let trainer = sensors?.trainer { session.subscribe(trainer) }
        if let treadmill = sensors?.treadmill { session.subscribe(treadmill) }
        let finished = finished
        let scheduler = scheduler
        session.subscribe { event in
            guard case .workoutEnd = event.kind else { return }
            // An end on its timer came `runAhead` before its moment: the run ends on the
            // moment, not 40 ms before it (a script waiting on it, the bench's end error).
            let early = min(RunLoopScheduler.realRunAhead, max(0, (event.t - scheduler.now) / scheduler.speed))
            DispatchQueue.main.asyncAfter(deadline: .now() + early) {
                finished.value = true
                MainLoop.wake()
            }
        }
        awake = request.allowSleep ? nil : SleepInhibitor()
        if !interactive, Terminal.hasKeyboard {
            lineKeys = KeyReader { action in
                if case .session(let command) = action { control(command) }
            }
        }
        if let server { announce(server) }
    }

    /// Runs the workout to its end, takes everything down and says how it ended: the
    /// process's exit status.
    func run() -> Int32 {
        awake?.hold(why: "\(routine.name) is running", environment: Terminal.environment)
        display?.open()
        lowerMusicBeforeTheFirstWords()
        session.start()
        // A stopping signal taken while the music was lowered found no workout to quit yet.
        if signal.value != nil { session.apply(.quit) }
        MainLoop.run { [finished] in finished.value }
        tearDown()
        return report()
    }

    /// Words said the moment the run starts (the first segment's name) come too soon for
    /// the music to be lowered `MusicUnderCues.lead` ahead, as it is for every later cue:
    /// the run waits for it, at most that long, before it starts (the run loop turns for the
    /// players' answers, and a stopping signal ends the wait). A run whose first moment is
    /// not heard over music lowers nothing here.
    private func lowerMusicBeforeTheFirstWords() {
        guard let music, music.cues.lowerForOpening(session.openingAlerts) else { return }
        let players = music.players
        let deadline = Date(timeIntervalSinceNow: Double(MusicUnderCues.lead) / 1e9)
        while !players.isDown, signal.value == nil, Date() < deadline {
            _ = RunLoop.main.run(mode: .default, before: deadline)
        }
    }

    /// The controllers that are not keys: standard output gone (a reader that left, a
    /// closed terminal) quits, and so do the stopping signals; Ctrl-Z pauses, and the
    /// display follows the terminal's size and a continue.
    private static func trapSignals(interactive: Bool, session: MainThreadBox<Session?>,
                                    display: MainThreadBox<LiveDisplay?>,
                                    server serverBox: MainThreadBox<(any WorkoutServer)?>,
                                    publisher publisherBox: MainThreadBox<SessionPublisher?>,
                                    signal: MainThreadBox<Int32?>) -> SignalTraps {
        // Signals and output failures are handled on the main queue, where these live; the
        // main queue turns only once the session has started.
        // Nothing more can be shown: the workout ends here, recorded as not completed.
        Output.onFailure = {
            DispatchQueue.main.async { session.value?.apply(.quit) }
        }
        // SIGUSR1 is done, for a foot pedal or a script: `kill -USR1 PID`.
        let trapped = SignalTraps.stopping + [SIGUSR1] + (interactive ? [SIGTSTP, SIGCONT, SIGWINCH] : [])
        return SignalTraps(trapped) { number in
            switch number {
            case SIGTSTP:
                session.value?.apply(.pause)
                if ProcessGroup.isOrphaned {
                    // No shell could continue a stopped workout: it stays on screen, paused.
                    display.value?.warn("workout: paused; Ctrl-Z cannot stop a workout no shell started (space goes on)")
                } else {
                    display.value?.suspend()
                    SignalTraps.stopProcess()
                    display.value?.resume()
                }
            case SIGUSR1:
                session.value?.apply(.done)
                serverBox.value?.commandApplied()
                publisherBox.value?.commandApplied()
            case SIGCONT:
                display.value?.resume()
            case SIGWINCH:
                display.value?.resized()
            default:
                // The count hook has stopped any Lua that was running; the hooks that run
                // while the workout ends (on_finish) run normally.
                LuaInterrupt.clear()
                signal.value = number
                session.value?.apply(.quit)
            }
        }
    }

    /// `--voice` through the sound player, where one plays and espeak-ng exists; else nil,
    /// and speech is said aloud (spd-say, or espeak-ng) by the alert player.
    private static func spokenSounds(_ sound: PulseOutput?, switches: AlertSwitches, alerts: SystemAlerts,
                                     warn: @escaping @Sendable (String) -> Void) -> SpokenSounds? {
        guard switches.voice, switches.sound, let sound,
              let espeak = ExecutableSearch.find("espeak-ng", environment: Terminal.environment) else { return nil }
        return SpokenSounds(output: sound, renderer: espeak, fallback: { alerts.say($0) }, warn: warn)
    }

    /// The session bus's music players under the cues; nil with `--music off` or no session
    /// bus, and nothing said. Music a run that died left lowered is put back first.
    /// `heard`: whether the run makes sounds or speech at all; without them there is
    /// nothing to lower music under, and unless a note waits to be put back, neither the
    /// sound server nor the session bus is opened (a run with `--no-sound` stays as light
    /// as one without music).
    private static func musicUnderCues(_ request: RunRequest, heard: Bool,
                                       scheduler: RunLoopScheduler) -> (players: MediaPlayers, cues: MusicUnderCues)? {
        let note = LoweredMusicNote(directories: UserDirectories(environment: Terminal.environment))
        guard heard || FileManager.default.fileExists(atPath: note.path) else { return nil }
        guard let players = MediaPlayers.connect(mode: request.music, note: note, environment: Terminal.environment)
        else { return nil }
        players.recover()
        return (players, MusicUnderCues(players: players, scheduler: scheduler))
    }

    /// The sound server, or nil with one warning: the bell stands in (unless --no-bell).
    /// A server that goes away later gives the same warning, once.
    private static func connectSound(_ request: RunRequest, warn: @escaping @Sendable (String) -> Void) -> PulseOutput? {
        let standIn = request.bell == false ? "; sounds are off" : "; the terminal bell stands in for sounds"
        switch PulseOutput.connect(volume: Double(request.volume) / 100, warn: { warn($0 + standIn) }) {
        case .success(let output):
            return output
        case .failure(let failure):
            warn("sound: \(failure.reason)" + standIn)
            return nil
        }
    }

    /// The sensors the run asks for: `--sensor`, else the remembered ones, none with
    /// `--no-sensors`. With none, Bluetooth is not even loaded.
    private static func sensorAddresses(_ request: RunRequest, warn: @escaping @Sendable (String) -> Void) -> [String] {
        var addresses = request.sensors.map { $0.uppercased() }
        if addresses.isEmpty && !request.noSensors {
            do {
                addresses = try RememberedSensors(directories: UserDirectories(environment: Terminal.environment))
                    .read().map(\.address)
            } catch {
                warn("\(error); the workout runs without sensors")
            }
        }
        return addresses
    }

    /// A distance step with nothing to measure it is said plainly, once: at the start
    /// without sensors, else when the first starts before any sensor gave a distance.
    private static func warnOfDistanceSteps(_ session: Session, sensors: Bool, scheduler: any Scheduler,
                                            warn: @escaping @Sendable (String) -> Void) {
        let routine = session.routine
        guard sensors else {
            if let (first, more) = DistanceWithoutSource.first(file: routine.fileName, in: routine.timeline) {
                warn("warning: " + first.warning(more: more, why: "no sensors are connected"))
            }
            return
        }
        var warned = false
        session.subscribe { event in
            guard !warned, case .segmentStart = event.kind,
                  let found = DistanceWithoutSource(file: routine.fileName, segment: session.segment,
                                                    count: routine.timeline.isOpenEnded ? nil : routine.timeline.count)
            else { return }
            // Sensors connect as the workout starts: a distance has 5 s of the step to come.
            let index = session.segment.index
            scheduler.scheduleAside(at: scheduler.now + 5) { _ in
                guard !warned, session.segment.index == index, session.state != .finished,
                      session.sensorValues[.distance]?.current == nil else { return }
                warned = true
                warn("warning: " + found.warning(why: "no sensor has given a distance yet"))
            }
        }
    }

    /// Those sensors, connecting in the background, and ERG control of a trainer among them
    /// (unless `--no-erg`); nil without sensors.
    private static func connectSensors(_ request: RunRequest, addresses: [String], session: Session,
                                       scheduler: RunLoopScheduler, pause: @escaping @MainActor () -> Void,
                                       warn: @escaping @Sendable (String) -> Void) -> SensorHub? {
        guard !addresses.isEmpty else { return nil }
        let trainer = request.noErg ? nil : TrainerControl(snapshot: session.snapshot, scheduler: scheduler, warn: warn)
        let treadmill = TreadmillControl(steers: !request.noErg, scheduler: scheduler, pause: pause, warn: warn)
        return SensorHub(addresses: addresses, environment: Terminal.environment, erg: trainer, treadmill: treadmill,
                         scheduler: scheduler,
                         footPodFactor: request.athlete.footPodFactor, take: session.take, stale: session.sensorStale, warn: warn)
    }

    /// The server of `--serve`, listening before the workout starts.
    private static func startServing(_ request: RunRequest, on address: ServeAddress, session: Session,
                                     control: @escaping @MainActor @Sendable (SessionCommand) -> Void, roster: ClassRoster?,
                                     starter: ServeStarter?, warn: @escaping @Sendable (String) -> Void) throws(ServeError) -> any WorkoutServer {
        guard let starter else {
            Output.error("workout: this binary cannot serve: run workout, which hands --serve to workout-serve")
            throw .failure("no server")
        }
        do throws(ServeError) {
            // A server that stops while the workout goes on: a `serve_stopped` event with
            // --json, and a warning (on the display, or standard error).
            let json = request.json
            let stopped: @MainActor @Sendable (String) -> Void = { reason in
                if json {
                    Output.line(JSONValue.object([("event", .string("serve_stopped")), ("reason", .string(reason))]).text)
                }
                warn("--serve: \(reason); the workout goes on without the page")
            }
            var serving = ServeRequest(address: address, renewToken: request.newToken,
                                       environment: Terminal.environment,
                                       snapshot: { session.snapshot() }, control: control, stopped: stopped)
            if let roster {
                serving.participants = { @Sendable in roster.json() }
                serving.watchParticipants = { @Sendable changed in roster.watch(changed) }
            }
            return try starter(serving)
        } catch {
            Output.error("workout: \(error.message)")
            throw error
        }
    }

    /// The session on the broker of `--mqtt`, connecting in the background before the
    /// workout starts: a broker that does not answer is a warning, libmosquitto missing an
    /// error that stops the run here.
    private static func startPublishing(on address: BrokerAddress, session: Session, scheduler: RunLoopScheduler,
                                        control: @escaping (SessionCommand) -> Void, roster: ClassRoster?,
                                        warn: @escaping @Sendable (String) -> Void) throws(ServeError) -> SessionPublisher {
        let topics = ClassTopics(prefix: address.prefix)
        let connection: BrokerConnection
        do {
            connection = try BrokerConnection.open(address, clientID: "workout-\(getpid())-\(UInt16.random(in: 0...UInt16.max))",
                                                   willTopic: topics.availability, will: ClassTopics.offline, warn: warn)
        } catch {
            Output.error("workout: --mqtt: \(error.message)")
            throw .failure(error.message)
        }
        let publisher = SessionPublisher(connection: connection, snapshot: session.snapshot, scheduler: scheduler,
                                         ftp: session.options.athlete.ftp, control: control, warn: warn)
        publisher.start(routine: session.routine, version: Version.number, roster: roster)
        return publisher
    }

    /// The page's URL: a QR code on the live display, a `serve` event before
    /// `workout_start` with --json, a line on standard error in plain mode.
    private func announce(_ server: any WorkoutServer) {
        if let display {
            display.invitation = Invitation(url: server.url, modules: server.qrModules)
        } else if request.json {
            Output.line(JSONValue.object([("event", .string("serve")), ("t", .integer(0)),
                                          ("url", .string(server.url))]).text)
        } else {
            Output.error("workout: follow and control this workout at \(server.url)")
        }
    }
}
