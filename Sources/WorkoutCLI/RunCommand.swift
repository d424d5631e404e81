import ArgumentParser
import Broker
import Display
import Foundation
import IntervalEngine
import Platform
import Serving

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
    var speed = PlainDecimal(RunRequest.standard.speed)

    @Flag(help: "Run the whole workout instantly on a virtual clock: hooks run, nothing sounds, no history.")
    var dryRun = false

    @OptionGroup var cues: CueOptions

    @Flag(help: "Neither read nor record the history ($XDG_DATA_HOME/workout/history.jsonl): the routine's `history` is empty, and this session is not kept.")
    var noHistory = false

    @Option(help: ArgumentHelp("Read and record the history in PATH instead of $XDG_DATA_HOME/workout/history.jsonl.",
                               valueName: "PATH"))
    var historyFile: String?

    @Option(help: ArgumentHelp("When the workout ends, write it as a FIT activity file into DIR (for a folder that syncs).",
                               valueName: "DIR"))
    var exportFit: String?

    @Flag(help: "Do not send a session of the intervals.icu calendar (`run today`) to it, nor any that waits (athlete file: intervals_upload = no).")
    var noUpload = false

    @OptionGroup var sensing: SensorOptions

    @OptionGroup(title: "Serving")
    var serving: ServeOptions

    @OptionGroup(title: "Publishing")
    var publishing: BrokerOptions

    /// Only a dry run needs it: a real open-ended workout runs until you quit.
    @OptionGroup var horizon: HorizonOption

    @OptionGroup var assume: AssumeOption

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
        var request = RunRequest(routine: routine, settings: parameters.settings, speed: speed.value, dryRun: dryRun,
                                 noHistory: noHistory, serveAddress: serving.address, newToken: serving.newToken,
                                 mqtt: publishing.address, mqttCA: publishing.trust.mqttCa,
                                 mqttPasswordFile: publishing.trust.mqttPasswordFile,
                                 insecure: publishing.trust.insecure, horizon: horizon.horizon, assume: assume.assume,
                                 historyFile: historyFile, exportFit: exportFit, noUpload: noUpload, limits: limits.limits)
        cues.apply(to: &request)
        sensing.apply(to: &request)
        return request
    }
}

/// Running what a `RunRequest` asks for: a dry run on the virtual clock, or a real run
/// with every listener wired.
extension RunRequest {
    /// `starter`: how to start the server of `--serve`, in `workout-serve` (nil in
    /// `workout`, which hands `--serve` to it).
    func run(serving starter: ServeStarter? = nil) throws {
        var request = self
        // The athlete file's max_hr and ftp, under the command line's --set.
        do {
            let file = AthleteFile(directories: UserDirectories(environment: Terminal.environment))
            request.settings = try file.settings(under: settings)
            // The file's mqtt = … when the command line names no broker; a dry run has none.
            // Its mqtt_ca = … for a TLS broker the command line gave no CA for; the password
            // from where it is given (`BrokerPassword.swift`).
            let options = try file.runOptions()
            if mqtt == nil, !dryRun, let line = options["mqtt"] {
                request.mqtt = try BrokerAddress.fromFile(line, insecure: insecure)
            }
            if let line = options["intervals_upload"], try !Self.uploads(line) { request.noUpload = true }
            request.mqtt = try request.mqtt?.withGivenCA(mqttCA).withCA(from: file, options: options)
                .withPassword(file: mqttPasswordFile, insecure: insecure, environment: Terminal.environment,
                              from: file, options: options)
        } catch {
            Output.error("workout: \(error.message)")
            throw ExitCode.failure
        }
        try request.runWithSettings(serving: starter)
    }

    /// The athlete file's `intervals_upload = yes|no`.
    private static func uploads(_ line: AthleteFile.RunOption) throws(RoutineError) -> Bool {
        switch line.value {
        case "yes": return true
        case "no": return false
        default: throw RoutineError("\(line.place): intervals_upload must be yes or no, got \(line.value.visible)")
        }
    }

    private func runWithSettings(serving starter: ServeStarter?) throws {
        let outcome: Int32
        if dryRun {
            outcome = runVirtually(try loaded().routine)
        } else {
            // A real run lives on the main thread, where its run loop turns: its routine is
            // loaded there.
            outcome = try MainActor.assumeIsolated {
                var request = self
                let routine: Routine
                (routine, request.plannedEvent) = try loaded()
                return request.runForReal(routine, serving: starter)
            }
        }
        throw ExitCode(outcome)
    }

    /// The routine, and for `today` and `today:N` (the workout planned on the athlete's
    /// intervals.icu calendar) the event the session is paired with when it is sent.
    private func loaded() throws -> (routine: Routine, event: Int?) {
        if let index = PlannedToday.index(routine) {
            let (routine, workout) = try PlannedToday.load(index, settings: settings, limits: limits, history: history)
            return (routine, workout.id)
        }
        return (try RoutineLookup.loadOrFail(routine, settings: settings, limits: limits, history: history, sounds: true), nil)
    }

    /// The one switchboard's answer for this run; `display`: the live display is shown;
    /// `soundServer`: one answered.
    func alertSwitches(display: Bool, soundServer: Bool = false) -> AlertSwitches {
        AlertSwitches.decide(bell: bell, sound: !noSound && soundServer, notify: notify, voice: voice,
                             noFlash: noFlash, display: display, dryRun: dryRun, environment: Terminal.environment)
    }

    /// `--dry-run`: the virtual clock runs everything at once, silently, unrecorded. An
    /// open-ended workout stops at the horizon (each segment is at most a day long, so
    /// that bounds it too).
    private func runVirtually(_ routine: Routine) -> Int32 {
        let clock = VirtualClock()
        routine.horizon = horizon ?? Timeline.defaultHorizon
        if let assume { routine.timeline.assume(openSeconds: assume) }
        let errors = ErrorCount()
        // Nothing is real-time here, so the events go out in blocks.
        let output = BlockOutput()
        defer { output.flush() }
        var options = SessionOptions(alerts: alertSwitches(display: false), payloadsInEvents: json)
        // Nobody is there to end an open segment: a stand-in does, when it was expected to.
        options.standInAthlete = true
        let session = Session(routine: routine, scheduler: clock, options: options)
        session.subscribe(EventPrinter(json ? .json : .plain, line: output.line))
        session.subscribe(errors)
        if let problem = DryRun.run(session, on: clock, until: DryRun.limit(routine.timeline)).problem {
            output.flush()
            Output.error("workout: \(problem)")
            return 1
        }
        output.flush()
        if routine.timeline.reachedHorizon {
            Output.error("workout: \(routine.fileName) is open-ended; the dry run stopped after "
                         + "\(routine.timeline.count) segments (--horizon N for more)")
        }
        return errors.value > 0 ? 1 : 0
    }

    /// A real run: the assembly builds every listener and controller, runs the workout
    /// and takes it down (`RunAssembly`).
    @MainActor
    private func runForReal(_ routine: Routine, serving starter: ServeStarter?) -> Int32 {
        do throws(ServeError) {
            return try RunAssembly(self, routine: routine, serving: starter).run()
        } catch {
            return error.exitStatus
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
