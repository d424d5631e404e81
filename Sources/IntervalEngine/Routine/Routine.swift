import WorkoutValues

/// A loaded routine: plain Swift values for the timeline, and its code (`RoutineHooks`:
/// the Lua state the loader ran it in) that holds its hooks, cue functions and payloads.
public final class Routine {
    /// Countdown bells when a routine names none (also what an imported routine gets).
    public static let defaultCountdown = 3.0

    /// Refuses blocks that would unroll past this many segments: a typo like
    /// `rounds(1e9, …)` must be an error, not an exhausted machine (the constructors, and
    /// the workout files read).
    public static let maximumSegments = 1_000_000

    /// A segment's `name` defaults to its kind, capitalised: `work` → `Work` (the
    /// constructors, and the workout files read and written).
    public static func defaultName(_ kind: String) -> String {
        kind.prefix(1).uppercased() + kind.dropFirst()
    }

    public let name: String
    public let description: String?
    /// Countdown bells in the last N seconds of each segment (0 = off).
    public let countdown: Double
    /// Which sound plays for what (`workout{ sounds = … }`), when sound is on.
    public let sounds: SoundScheme
    /// The sound files it plays (in `sounds`, `sound_files`, and the user's defaults it
    /// keeps), decoded when it loaded, each once, by name: what `sound-check` plays. (Not
    /// in the order named: Lua visits a table's fields in an order that changes from run
    /// to run.)
    public var soundFiles: [SoundFile] {
        var files = code.soundFiles
        let scheme = [sounds.countdown, sounds.finish, sounds.pause, sounds.resume, sounds.start]
            + sounds.kinds.keys.sorted().map { sounds.kinds[$0] ?? nil }
        for case let file? in scheme.map({ $0?.file }) where !files.contains(file) {
            files.append(file)
        }
        return files.sorted { $0.name < $1.name }
    }

    /// Each file it plays, as the scheme plays it (with its volume), or at full volume for
    /// one only hooks play (`sound_files`): what the player converts to its rate before
    /// the workout starts.
    public var fileSounds: [Sound] {
        let scheme = [sounds.countdown, sounds.finish, sounds.pause, sounds.resume, sounds.start]
            + sounds.kinds.keys.sorted().map { sounds.kinds[$0] ?? nil }
        var found: [Sound] = []
        for case let sound? in scheme where sound.file != nil && !found.contains(sound) { found.append(sound) }
        for file in soundFiles where !found.contains(where: { $0.file == file }) { found.append(Sound(file: file)) }
        return found
    }
    /// The files its hooks asked to play so far without naming them in `sounds` or
    /// `sound_files` (heard nowhere), each place once: `workout check`'s warnings.
    public var undeclaredSounds: [UndeclaredSound] { code.undeclaredSounds }
    /// The segments known so far; an open-ended routine's grows as it runs.
    public let timeline: Timeline
    /// The file name the routine was loaded as (`hiit.lua`).
    public let fileName: String
    /// For a routine loaded from a file: its absolute path, and the SHA-256 of the bytes
    /// that were loaded (the history records which version of a file was run).
    public package(set) var filePath: String?
    public package(set) var sha256: String?
    /// Lines printed while the file loaded; the session replays them as `log` events.
    public let loadLog: [String]
    /// What `params{}` declared, by name, with the values this run uses.
    public let parameters: [Parameter]
    let hooks: WorkoutHooks
    /// The routine's code as the session calls it: its hooks, cue functions and conditions.
    package let code: any RoutineHooks

    /// What the loader hands over: the workout the code built, the code itself, the file
    /// name, the lines printed while it loaded and the parameters it declared.
    package init(spec: WorkoutSpec, code: any RoutineHooks, fileName: String, loadLog: [String], parameters: [Parameter]) {
        name = spec.name
        description = spec.description
        countdown = spec.countdown
        sounds = spec.sounds
        timeline = Timeline(steps: spec.steps)
        self.fileName = fileName
        self.loadLog = loadLog
        self.parameters = parameters
        hooks = spec.hooks
        self.code = code
    }

    /// A run stops asking generators for more at this many segments (a dry run of a
    /// routine that never ends must end); unlimited unless set.
    public var horizon: Int {
        get { timeline.horizon }
        set { timeline.horizon = newValue }
    }

    /// For `plan` and `check`: asks the generators for their segments, up to `horizon`
    /// segments in all. No hook runs, so a generator sees only its own state, and
    /// `run.elapsed` is the planned time. Actions it calls do nothing. Returns the
    /// errors of generators that failed (each ends there; the steps after it follow).
    public func expand(horizon: Int) -> [String] {
        timeline.horizon = horizon
        var errors: [String] = []
        let silent = SilentActions()
        code.actions = silent
        withExtendedLifetime(silent) {
            timeline.expand(code) { errors.append($0.message) }
        }
        code.actions = nil
        return errors
    }

    /// Asks an open-ended routine's generators for its next segment, `elapsed` workout
    /// seconds in (pauses excluded). A generator that fails is reported through `failed`
    /// and ends; the steps after it follow.
    func pullSegment(elapsed: Double, failed: (HookError) -> Void) -> Timeline.Pulled {
        timeline.pull(code, elapsed: elapsed, failed: failed)
    }

    /// Registry references still held for hooks, cues and payloads.
    public var liveReferences: Int { code.liveReferences }

    /// Drops every registry reference; after this no hook can run.
    public func release() {
        code.releaseAll()
    }

    /// The segment's payload as JSON, as it is now (hooks may have changed it).
    public func infoJSON(for segment: Segment) -> JSONValue {
        if let data = segment.infoData { return data }
        guard let info = segment.info else { return .null }
        return code.json(of: info)
    }
}

/// A routine that failed to load: the message names the file and line. `isUsage` marks
/// a mistake on the command line (a bad `--set`) rather than in the routine: exit 64.
/// `isModule` marks a file that ran and returned a table or a function instead of a
/// workout: a helper module for `require`, not a broken routine.
public struct RoutineError: Error, CustomStringConvertible, Equatable {
    public var message: String
    public var isUsage: Bool
    public var isModule: Bool
    public var description: String { message }

    public init(_ message: String, isUsage: Bool = false, isModule: Bool = false) {
        self.message = message
        self.isUsage = isUsage
        self.isModule = isModule
    }
}

/// The actions while `plan` runs generators: there is no workout to ring, skip or
/// pause, and what it prints is not shown.
private final class SilentActions: RoutineActions {
    func ringBell() {}
    func flashBand() {}
    func notify(title: String, body: String?) {}
    func say(_ text: String, from function: String) {}
    func sound(_ sound: Sound, from function: String) {}
    func unheardSound(_ text: String) {}
    func log(_ text: String) {}
    func control(_ command: SessionCommand) {}
    func record(_ score: Score) {}
    func tally(_ name: String) -> Int { 0 }
    func erg(_ watts: Int) {}
}
