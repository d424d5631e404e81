import ArgumentParser
import Broker
import History
import IntervalEngine
import LuaBridge
import Music
import Serving
import WorkoutValues

/// What `workout run` is asked to do, as a plain value. ArgumentParser's `Run` makes one
/// from its options, and so does `QuickRunArguments` for the common command lines without
/// ArgumentParser's parse (most of a run's start-up, docs/design.md); the run itself reads
/// only this. The defaults have their home here: `Run`'s options take theirs from
/// `RunRequest.standard`.
struct RunRequest: Equatable {
    var routine: String
    var settings: [ParameterSetting] = []
    var speed: Double = 1
    var json = false
    var dryRun = false
    /// Nil: on where no sound plays, but off in a dry run.
    var bell: Bool?
    var noSound = false
    var volume = 80
    var noFlash = false
    var calm = false
    var notify: Bool?
    var voice = false
    /// `--music`: what playing music does while a cue is heard.
    var music = MusicMode.duck
    var countUp = false
    var tenths = false
    var noHistory = false
    var allowSleep = false
    /// `--sensor`: these Bluetooth sensors instead of the remembered ones.
    var sensors: [String] = []
    var noSensors = false
    /// `--no-erg`: no power targets written to a trainer.
    var noErg = false
    var serveAddress: ServeAddress?
    var newToken = false
    /// `--mqtt` (or the athlete file's `mqtt = …`): the broker the session is published on.
    var mqtt: BrokerAddress?
    /// `--mqtt-ca`: the CA trusted for an mqtts:// broker, for the command line's address or the file's.
    var mqttCA: String?
    /// `--mqtt-password-file`: the broker's password, read from this file.
    var mqttPasswordFile: String?
    /// `--insecure`: a password may go over plain mqtt://.
    var insecure = false
    /// `--horizon`: only a dry run takes it.
    var horizon: Int?
    /// `--assume`: only a dry run takes it.
    var assume: Double?
    /// `--history-file`: the history to read and record in, instead of the user's.
    var historyFile: String?
    /// `--export-fit`: the folder the session's FIT file is written into at the end.
    var exportFit: String?
    /// `--no-upload` (or the athlete file's `intervals_upload = no`): a session of the
    /// intervals.icu calendar is not sent to it, and nothing waiting is sent.
    var noUpload = false
    /// The planned event of intervals.icu this run runs (`run today`), set as it loads.
    var plannedEvent: Int?

    /// What the routine's `history` reads and the session is recorded in (nil: neither).
    var history: HistoryFile? { HistorySourceOptions.file(noHistory: noHistory, path: historyFile) }
    var limits = LuaLimits()

    /// `--set max_hr=… ftp=…` (over the athlete file's, once `run` has read it), read
    /// against by sensors (validated in `validate`).
    var athlete: Athlete { (try? Athlete(settings: settings)) ?? Athlete() }

    /// The defaults, for `Run`'s declarations.
    static let standard = RunRequest(routine: "")

    /// The checks that span options (each option group checks its own).
    func validate() throws {
        if routine.isEmpty { throw ValidationError("the routine's name cannot be empty") }
        let speeds = RunLoopScheduler.speeds
        guard speeds.contains(speed) else {
            throw ValidationError("--speed must be a number from \(Number.format(speeds.lowerBound)) to "
                                  + "\(Number.format(speeds.upperBound)), got \(Number.format(speed))")
        }
        try SoundCheck.validate(volume: volume)
        if horizon != nil && !dryRun {
            throw ValidationError("--horizon goes with --dry-run: a real open-ended workout runs until you quit")
        }
        for sensor in sensors where !RememberedSensors.isAddress(sensor) {
            throw ValidationError("--sensor takes a Bluetooth address (C0:FF:EE:00:00:01), got \(VisibleText.escape(sensor))")
        }
        if !sensors.isEmpty && noSensors {
            throw ValidationError("--sensor and --no-sensors contradict each other")
        }
        do {
            _ = try Athlete(settings: settings)
        } catch {
            throw ValidationError(error.message)
        }
        if assume != nil && !dryRun {
            throw ValidationError("--assume goes with --dry-run: in a real run the athlete ends each open segment")
        }
        if exportFit != nil && (dryRun || noHistory) {
            throw ValidationError("--export-fit goes with a real run that is recorded: the file is made from the history's line")
        }
        if serveAddress != nil && dryRun {
            throw ValidationError("--serve goes with a real run, not --dry-run")
        }
        if mqtt != nil && dryRun {
            throw ValidationError("--mqtt goes with a real run, not --dry-run")
        }
        if let problem = mqtt?.passwordProblem(insecure: insecure) {
            throw ValidationError("--mqtt: \(problem)")
        }
    }
}

extension MusicMode: ExpressibleByArgument {}
