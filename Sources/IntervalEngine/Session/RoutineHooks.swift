import WorkoutValues

/// What the session asks of the routine's code while it runs: call a hook, a cue's
/// function or a sample condition with its arguments, show the sensors' values, and hear
/// the actions the code calls (`bell()`, `skip()` …). The session knows the code only
/// through this protocol and its references (`RoutineReference`); the Lua state is the
/// one implementation (`Lua/LuaState+Hooks.swift`), and builds the routine's tables
/// (`seg`, `s`, `w`, `summary`) from the arguments' values.
package protocol RoutineHooks: AnyObject {
    /// Who hears the actions the code calls while the session runs; nil once it ends.
    var actions: (any RoutineActions)? { get set }
    /// Calls `function` with `arguments` under the hooks' limits; `name` names it in an
    /// error (`on_segment_start`, `cue`). It returns nothing.
    func call(_ function: RoutineReference, named name: String, with arguments: [HookArgument]) throws(HookError)
    /// Calls a condition (`until_sample`): whether it holds.
    func test(_ function: RoutineReference, named name: String, with arguments: [HookArgument]) throws(HookError) -> Bool
    /// The routine's `sensor` table shows these readings (nil where absent or stale).
    func showSensors(_ readings: SensorReadings, zone: Int?)
    /// Starts a `generate(fn)` step, for the timeline to pull its segments from.
    func generator(for spec: GeneratorSpec) -> any SegmentGenerator
    /// A value the code holds (a segment's `info`), as JSON as it stands now.
    func json(of value: RoutineReference) -> JSONValue
    /// The sound files it names (`sounds`, `sound_files`), decoded when it loaded, in the
    /// order named.
    var soundFiles: [SoundFile] { get }
    /// The files its hooks asked to play so far without naming them, each place once.
    var undeclaredSounds: [UndeclaredSound] { get }
    /// How many references are still held, for tests that none is left behind.
    var liveReferences: Int { get }
    /// Lets every reference go: after this no hook runs.
    func releaseAll()
}

/// A `generate(fn)` step while it runs: the timeline asks it for its next steps as the
/// workout gets there (`Timeline.pull`).
package protocol SegmentGenerator: AnyObject {
    /// It has ended: returned, failed or gave nothing.
    var isFinished: Bool { get }
    /// Its next steps (usually one segment); none once it has ended. None while it has
    /// not ended means none yet (a follower's feed of the coach's segments): the session
    /// waits at the boundary until told more came (`Session.segmentsArrived`). `index`:
    /// the number the next segment gets; `elapsed`: workout seconds done, pauses not counted.
    func next(index: Int, elapsed: Double) throws(HookError) -> [Step]
    /// Lets what it holds go.
    func close()
}

/// One argument of a hook, as a value.
package enum HookArgument {
    /// `seg`: the segment, how many the workout has (nil: open-ended), the seconds done.
    case segment(Segment, count: Int?, elapsed: Double)
    /// `w` of `on_start`.
    case workout(Routine)
    /// `summary` of `on_finish`.
    case summary(Summary)
    /// `s` of `on_sample` and `until_sample`: the readings and the heart rate's zone.
    case sample(SensorReadings, zone: Int?)
    case text(String)
    case integer(Int)
    case number(Double)
}

/// An error raised by the routine's code: its message names `file:line`, and runtime
/// errors carry the traceback separately so that one-line output stays one line.
package struct HookError: Error, Equatable {
    package var message: String
    package var traceback: String?
    /// The user stopped the call (Ctrl-C): not the routine's fault.
    package var interrupted = false

    package init(message: String, traceback: String?) {
        self.message = message
        self.traceback = traceback
    }
}
