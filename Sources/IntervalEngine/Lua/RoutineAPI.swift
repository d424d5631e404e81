import CLua

/// Every global a routine can call, in one table: the loader registers from it, and
/// the docs and editor definitions can be generated from it so they cannot drift.
enum RoutineAPI {
    struct Function {
        let name: String
        let signature: String
        let summary: String
        let body: workout_SwiftFunction
    }

    static let functions: [Function] = [
        Function(name: "workout", signature: "workout{ name=, description=, countdown=, steps..., hooks... }",
                 summary: "the routine; a routine file returns it", body: Constructors.workout),
        Function(name: "warmup", signature: "warmup(d, name?, info?)", summary: "a warm-up segment",
                 body: Constructors.warmup),
        Function(name: "work", signature: "work(d, name?, info?)", summary: "a work segment",
                 body: Constructors.work),
        Function(name: "rest", signature: "rest(d, name?, info?)", summary: "a rest segment",
                 body: Constructors.rest),
        Function(name: "cooldown", signature: "cooldown(d, name?, info?)", summary: "a cool-down segment",
                 body: Constructors.cooldown),
        Function(name: "prep", signature: "prep(d, name?, info?)", summary: "a get-ready segment",
                 body: Constructors.prep),
        Function(name: "segment", signature: "segment{ kind=, duration=, name=, info=, cues=, on_start=, on_end= }",
                 summary: "a segment in full form", body: Constructors.segment),
        Function(name: "rounds", signature: "rounds(n, { steps... }, { name=, rest_between=, skip_last_rest= }?)",
                 summary: "repeats steps n times", body: Constructors.rounds),
        Function(name: "bell", signature: "bell()", summary: "rings the terminal bell", body: Actions.bell),
        Function(name: "notify", signature: "notify(title, body?)", summary: "sends a desktop notification",
                 body: Actions.notify),
        Function(name: "say", signature: "say(text)", summary: "speaks text where a synthesizer exists",
                 body: Actions.say),
        Function(name: "skip", signature: "skip()", summary: "ends the current segment now", body: Actions.skip),
        Function(name: "extend", signature: "extend(seconds)",
                 summary: "lengthens (or, negative, shortens) the current segment", body: Actions.extend),
        Function(name: "pause", signature: "pause()", summary: "pauses the workout", body: Actions.pause),
    ]

    static let stepMetatable = "workout.step"
    static let routineMetatable = "workout.routine"

    static func register(in lua: LuaState) {
        for function in functions {
            lua.setGlobal(function.name, function.body)
        }
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

/// What `workout{}` collected.
struct WorkoutSpec {
    var name: String
    var description: String?
    var countdown: Double
    var steps: [Step]
    var hooks: WorkoutHooks
    var line: Int
}

/// Workout-level hooks, as registry references.
struct WorkoutHooks {
    var onStart: LuaRef?
    var onSegmentStart: LuaRef?
    var onSegmentEnd: LuaRef?
    var onPause: LuaRef?
    var onResume: LuaRef?
    var onFinish: LuaRef?
}

/// The steps and routines created while a file loads. Lua holds each as a small
/// userdata carrying an index into these arrays.
struct RoutineBuilder {
    var steps: [Step] = []
    var workouts: [WorkoutSpec] = []
    /// `print` output while loading, replayed as `log` events when the workout starts.
    var log: [String] = []
}
