import CLua
import IntervalEngine

/// Every global a routine can call, in one table: the loader registers from it, and the
/// editor definitions (LuaLS), the luacheck config and the reference's quick list are
/// generated from it (with `RoutineTypes`), so they cannot drift.
public enum RoutineAPI {
    public struct Function: Sendable {
        public enum Group: String, Sendable {
            case constructor, parameters, action
        }

        public let name: String
        public let group: Group
        public let parameters: [APIField]
        /// Called with one table, as `segment{ … }`: the signature lists its fields.
        public let takesTable: Bool
        public let returns: String?
        /// Other ways to call it, as LuaLS `fun(…)` types.
        public let overloads: [String]
        public let summary: String
        let body: workout_SwiftFunction

        init(_ name: String, _ group: Group, _ parameters: [APIField], takesTable: Bool = false,
             returns: String? = nil, overloads: [String] = [], _ summary: String, body: workout_SwiftFunction) {
            self.name = name
            self.group = group
            self.parameters = parameters
            self.takesTable = takesTable
            self.returns = returns
            self.overloads = overloads
            self.summary = summary
            self.body = body
        }

        /// `work(d, name?, info?)`, `segment{ kind=, duration=, … }`.
        public var signature: String {
            if takesTable, let spec = parameters.first,
               let shape = RoutineTypes.all.first(where: { $0.name == spec.type }) {
                let items = shape.items == nil ? "" : " steps…,"
                return "\(name){\(items) " + shape.fields.map { "\($0.name)=" }.joined(separator: ", ") + " }"
            }
            return "\(name)(" + parameters.map { $0.name + ($0.optional ? "?" : "") }.joined(separator: ", ") + ")"
        }
    }

    static func shortForm(_ kind: String, _ what: String, _ body: workout_SwiftFunction) -> Function {
        Function(kind, .constructor, [
            APIField("d", "workout.Duration", "How long: seconds, or text like `\"1:30\"`."),
            APIField("name", "string", optional: true, "Shown and spoken; default `\"\(Routine.defaultName(kind))\"`."),
            APIField("info", "table", optional: true, "The payload, handed back as `seg.info`."),
        ], returns: "workout.Step", overloads: ["fun(d: workout.Duration, info: table): workout.Step"],
        "\(what). A table as the second argument is `info`.", body: body)
    }

    public static let functions: [Function] = [
        Function("workout", .constructor, [APIField("spec", "workout.Spec", "Name, description, countdown, hooks, and the steps in order.")],
                 takesTable: true, returns: "workout.Routine",
                 "The routine. A routine file returns it: `return workout { … }`.", body: Constructors.workout),
        shortForm("warmup", "A warm-up segment", Constructors.warmup),
        shortForm("work", "A work segment", Constructors.work),
        shortForm("rest", "A rest segment", Constructors.rest),
        shortForm("cooldown", "A cool-down segment", Constructors.cooldown),
        shortForm("prep", "A get-ready segment", Constructors.prep),
        Function("segment", .constructor, [APIField("spec", "workout.SegmentSpec", "The segment's fields.")],
                 takesTable: true, returns: "workout.Step",
                 "A segment in full form: any kind, cues, its own hooks.", body: Constructors.segment),
        Function("for_time", .constructor, [APIField("spec", "workout.ForTimeSpec", "The cap, name and the rest of a segment's fields.")],
                 takesTable: true, returns: "workout.Step",
                 "For Time: an open work segment (the clock counts up) that, when done, records its time as the score `time` (lower is better); at its cap it records `capped` = 1 and the tallies instead.",
                 body: Constructors.forTime),
        Function("amrap", .constructor, [APIField("spec", "workout.AmrapSpec", "Its minutes, name and the rest of a segment's fields.")],
                 takesTable: true, returns: "workout.Step",
                 "As many rounds as possible: a work segment of `minutes` that records the `rounds` tally (`r`, the page's +1) as a score when it ends.",
                 body: Constructors.amrap),
        Function("rounds", .constructor, [
            APIField("n", "integer", "How many times, 1 or more."),
            APIField("steps", "workout.Step[]", "The steps of one round, in order; may hold further `rounds`."),
            APIField("options", "workout.RoundsOptions", optional: true, "`name`, `rest_between`, `skip_last_rest`."),
        ], returns: "workout.Step", "Repeats steps n times.", body: Constructors.rounds),
        Function("generate", .constructor, [
            APIField("fn", "fun(run: workout.Progress)", "Yields the steps one at a time with `coroutine.yield(step)`; returning ends it."),
        ], returns: "workout.Step",
        "An open-ended step: `fn` runs as the workout reaches it, one `coroutine.yield(step)` per step, so it can adapt to what hooks recorded or never end.",
        body: Constructors.generate),
        Function("params", .parameters, [
            APIField("defaults", "T", "Each parameter's default, or `{ default = …, type = …, help = … }`."),
        ], returns: "T",
        "Declares the routine's parameters and returns their values, changed by `--set NAME=VALUE`. Durations come back as seconds.",
        body: Params.params),
        Function("bell", .action, [], "Rings the terminal bell (unless `--no-bell`).", body: Actions.bell),
        Function("flash", .action, [],
                 "Flashes the live display's band, a bell to see across a room (unless `--no-flash`).",
                 body: Actions.flash),
        Function("notify", .action, [
            APIField("title", "string", "The notification's title."),
            APIField("body", "string", optional: true, "Its text."),
        ], "Sends a desktop notification (when notifications are on).", body: Actions.notify),
        Function("say", .action, [APIField("text", "string", "What to say: at most 500 bytes.")],
                 "Speaks text where a synthesizer exists; shown and recorded either way. One call of a hook may say "
                 + "16 texts; a minute of the hooks' speech may wait at once.", body: Actions.say),
        Function("sound", .action, [APIField("name", "string", "`\"pip\"`, `\"go\"`, `\"rest\"`, `\"start\"`, `\"finish\"`, `\"pause\"`, `\"resume\"`, or a sound file the routine names in `sounds` or `sound_files`.")],
                 "Plays a built-in sound or a sound file now: from a cue's function or a segment's hook, on that "
                 + "moment's second, beside the sounds planned for it (the terminal bell stands in where no sound "
                 + "plays). A file "
                 + "not named in `sounds` or `sound_files` was not decoded when the routine loaded: nothing plays, and its "
                 + "event says so. One call of a hook may play 16 sounds; a minute of the hooks' sounds may wait at once.",
                 body: Actions.sound),
        Function("tone", .action, [APIField("notes", "workout.Note", "One note `{ hz =, ms =, volume = }`, or a list of them played in order.")],
                 takesTable: true, overloads: ["fun(notes: workout.Note[])"],
                 "Plays notes of your own now: `tone{ hz = 660, ms = 150 }`. Counted with `sound()`.", body: Actions.tone),
        Function("skip", .action, [], "Ends the current segment now.", body: Actions.skip),
        Function("done", .action, [], "Marks the current open segment done, as the athlete's Enter would (`by = \"hook\"`); nothing for a timed one.",
                 body: Actions.done),
        Function("tally", .action, [APIField("name", "string", "The tally: `\"rounds\"` is the one `r` and the page's +1 count.")],
                 returns: "integer", "What a tally has counted so far in this workout (0 before its first count).",
                 body: Actions.tally),
        Function("extend", .action, [APIField("seconds", "number", "Seconds to add; negative shortens, and taking "
                                              + "all that is left ends the segment, counted as skipped.")],
                 "Lengthens (or, negative, shortens) the current segment.", body: Actions.extend),
        Function("pause", .action, [], "Pauses the workout; the user resumes it.", body: Actions.pause),
        Function("record", .action, [
            APIField("name", "string", "What the number is: `\"rounds\"`, `\"best round\"`."),
            APIField("value", "number", "The value; a later call with the same name replaces it."),
            APIField("options", "workout.RecordOptions", optional: true, "`better = \"lower\"` for times (higher is better by default)."),
        ], "Keeps a score for this session: the last value per name goes into the history, and `workout history stats` shows each name's best.",
        body: Actions.record),
        Function("erg", .action, [APIField("watts", "integer", "The target power, 0 to 2000 watts.")],
                 "Sets a connected trainer's target power (ERG mode) until the next segment's own target or the next call; "
                 + "nothing without a trainer or with `--no-erg`.", body: Actions.erg),
    ]

    /// The global tables besides the functions, and what they hold: `sensor`, filled in
    /// by the session as sensors' values come.
    public static let tables = ["sensor": RoutineTypes.sample]

    static let stepMetatable = "workout.step"
    static let routineMetatable = "workout.routine"

    static func register(in lua: LuaState) {
        for function in functions {
            lua.setGlobal(function.name, function.body)
        }
        // `sensor`: the sensors' latest values, filled in by the session as they come.
        lua_createtable(lua.L, 0, 5)
        lua_setglobal(lua.L, "sensor")
        for (name, tostring) in [(stepMetatable, Constructors.stepToString),
                                 (routineMetatable, Constructors.routineToString)] {
            luaL_newmetatable(lua.L, name)
            workout_pushswiftfunction(lua.L, tostring)
            lua_setfield(lua.L, -2, "__tostring")
            lua_pushstring(lua.L, name)
            lua_setfield(lua.L, -2, "__metatable")
            lua.stack.pop()
        }
    }
}

/// The steps and routines created while a file loads. Lua holds each as a small
/// userdata carrying an index into these arrays.
struct RoutineBuilder {
    var steps: [Step] = []
    var workouts: [WorkoutSpec] = []
    /// `print` output while loading, replayed as `log` events when the workout starts.
    var log: [String] = []
    /// `--set` values waiting for `params{}`.
    var settings: [ParameterSetting] = []
    /// What `params{}` declared; nil until it is called.
    var parameters: [Parameter]?
    /// A `--set` value `params{}` could not use: reported as a usage error even if the
    /// routine caught the Lua error it raised.
    var settingProblem: String?

    /// The step a userdata names; nil for one made while loading a routine whose steps
    /// were dropped once its timeline was fixed.
    func step(_ position: Int) -> Step? {
        steps.indices.contains(position) ? steps[position] : nil
    }
}
