/// The tables a routine writes (`segment{}`, `rounds` options, `workout{}`, a parameter's
/// full form) and the ones its hooks receive (`seg`, `w`, `summary`). The constructors
/// check field names against these lists, and the editor definitions, the luacheck
/// config and the reference are generated from them, so none of them can drift.
public struct APIField: Sendable {
    public let name: String
    /// A LuaLS type: `string`, `workout.Duration`, `fun(seg: workout.Segment)`.
    public let type: String
    public let optional: Bool
    public let doc: String

    init(_ name: String, _ type: String, optional: Bool = false, _ doc: String) {
        self.name = name
        self.type = type
        self.optional = optional
        self.doc = doc
    }
}

public struct APIClass: Sendable {
    public let name: String
    public let doc: String
    public let fields: [APIField]
    /// `workout{}` also holds its steps in array order.
    public let items: String?

    init(_ name: String, _ doc: String, items: String? = nil, _ fields: [APIField]) {
        self.name = name
        self.doc = doc
        self.items = items
        self.fields = fields
    }

    public var fieldNames: [String] { fields.map(\.name) }
}

/// A type name for another: `workout.Duration` is `number|string`.
public struct APIAlias: Sendable {
    public let name: String
    public let type: String
    public let doc: String
}

public enum RoutineTypes {
    static let segmentHook = "fun(seg: workout.Segment)"

    public static let aliases: [APIAlias] = [
        APIAlias(name: "workout.Duration", type: "number|string",
                 doc: "Seconds (`20`, `2.5`) or text: `\"90\"`, `\"90s\"`, `\"1:30\"`, `\"1:02:03\"`, `\"2m\"`, `\"1m30s\"`, `\"1h\"`, `\"1h5m\"`. More than 0, at most 24 hours."),
        APIAlias(name: "workout.SoundChoice", type: "string|false|workout.Note|workout.Note[]",
                 doc: "A sound: a built-in one's name (`\"pip\"`, `\"go\"`, `\"rest\"`, `\"start\"`, `\"finish\"`, `\"pause\"`, `\"resume\"`), a note `{ hz =, ms =, volume = }` or a list of notes; `false` is silence."),
        APIAlias(name: "workout.Cues", type: "table<number|\"half\", string|fun(seg: workout.Segment)>",
                 doc: "Moments inside a segment: keys are seconds from the start (`[10]`), from the end (`[-5]`), or `half`; values are text (shown, spoken with `--voice`) or a function."),
    ]

    public static let step = APIClass("workout.Step", "A step of a routine: a segment, a `rounds` block or a `generate`. Put it in `workout{}` or in `rounds`.", [])

    public static let routine = APIClass("workout.Routine", "The built routine; a routine file returns it.", [])

    public static let segmentSpec = APIClass("workout.SegmentSpec", "The full form of a segment, for `segment{}`.", [
        APIField("kind", "string", "What the segment is: `work`, `rest`, `warmup`, `cooldown`, `prep` (each has its colour) or any other word."),
        APIField("duration", "workout.Duration", "How long it lasts."),
        APIField("name", "string", optional: true, "Shown and spoken; defaults to the kind, capitalised."),
        APIField("info", "table", optional: true, "The payload: handed back as `seg.info` on every fire, the same table each time."),
        APIField("cues", "workout.Cues", optional: true, "Cues inside the segment: `{ [10] = \"…\", [-5] = fn, half = \"…\" }`."),
        APIField("on_start", segmentHook, optional: true, "Runs when this segment starts, before `on_segment_start`."),
        APIField("on_end", segmentHook, optional: true, "Runs when this segment ends, before `on_segment_end`."),
    ])

    public static let roundsOptions = APIClass("workout.RoundsOptions", "The options of `rounds`.", [
        APIField("name", "string", optional: true, "Labels the block: hooks see it as `seg.block`."),
        APIField("rest_between", "workout.Duration", optional: true, "Adds a rest of this length between two rounds (none after the last)."),
        APIField("skip_last_rest", "boolean", optional: true, "Drops a rest that ends the last round."),
    ])

    public static let recordOptions = APIClass("workout.RecordOptions", "The options of `record`.", [
        APIField("better", "\"higher\"|\"lower\"", optional: true, "Which way a value is better: `\"higher\"` (the default: rounds, reps) or `\"lower\"` (times)."),
    ])

    public static let workoutSpec = APIClass("workout.Spec", "What `workout{}` takes: fields, hooks and the steps in order.",
                                             items: "workout.Step", [
        APIField("name", "string", "The routine's name, shown when it runs."),
        APIField("description", "string", optional: true, "One line about it, shown by `workout list` and `workout plan`."),
        APIField("countdown", "integer", optional: true, "Bells (or pips) in the last N seconds of each segment: 0 to 60, default 3, 0 turns them off."),
        APIField("sounds", "table<string, workout.SoundChoice>", optional: true, "What plays when, with sound on: keys `countdown`, `finish`, `pause`, `resume`, `start` (kinds not listed) or a segment kind (`work`, `rest`, …); each a sound's name, notes, or `false` for none. Defaults: `countdown = \"pip\"`, `work = \"go\"`, `rest = \"rest\"`, `start = \"start\"`, `finish = \"finish\"`."),
        APIField("on_start", "fun(w: workout.Started)", optional: true, "Runs when the workout starts, before the first segment."),
        APIField("on_segment_start", segmentHook, optional: true, "Runs as each segment starts."),
        APIField("on_segment_end", segmentHook, optional: true, "Runs as each segment ends (also when skipped)."),
        APIField("on_pause", segmentHook, optional: true, "Runs when the workout pauses."),
        APIField("on_resume", segmentHook, optional: true, "Runs when the workout resumes."),
        APIField("on_finish", "fun(summary: workout.Summary)", optional: true, "Runs when the workout ends, finished or stopped."),
        APIField("on_sample", "fun(seg: workout.Segment, s: workout.Sample)", optional: true, "Runs when a Bluetooth sensor's values come in, at most once a second."),
    ])

    public static let sample = APIClass("workout.Sample", "`s` of `on_sample`, and the global `sensor`: the sensors' latest values (nil when no sensor gives one, or it dropped out).", [
        APIField("hr", "integer", optional: true, "Heart rate, beats per minute."),
        APIField("power", "integer", optional: true, "Power, watts."),
        APIField("cadence", "number", optional: true, "Cadence, rpm."),
        APIField("speed", "number", optional: true, "Speed, km/h (a trainer's)."),
        APIField("hr_zone", "integer", optional: true, "Heart-rate zone 1–5, with `--set max_hr=`."),
    ])

    public static let segment = APIClass("workout.Segment", "`seg`: the segment a hook or cue runs for.", [
        APIField("index", "integer", "Its position in the flattened timeline, from 1."),
        APIField("count", "integer", optional: true, "How many segments the timeline has; nil when the workout is open-ended (it has a `generate`)."),
        APIField("name", "string", "Its name."),
        APIField("kind", "string", "Its kind: `work`, `rest`, …"),
        APIField("duration", "number", "Its planned length in seconds."),
        APIField("start", "number", "Its planned start, in seconds from the workout's start."),
        APIField("round", "integer", optional: true, "The round of the innermost `rounds` block it is in (nil outside one)."),
        APIField("rounds", "integer", optional: true, "How many rounds that block has."),
        APIField("block", "string", optional: true, "That block's `name`."),
        APIField("info", "table", optional: true, "Its payload: the same table on every call, shared by every round of a repeated step."),
        APIField("elapsed", "number", "Seconds done in this segment."),
        APIField("remaining", "number", "Seconds left in this segment."),
    ])

    public static let started = APIClass("workout.Started", "`w`: what `on_start` receives.", [
        APIField("name", "string", "The routine's name."),
        APIField("description", "string", optional: true, "Its description."),
        APIField("segments", "integer", optional: true, "How many segments it has; nil when it is open-ended."),
        APIField("duration", "number", optional: true, "Its planned length in seconds; nil when it is open-ended."),
        APIField("countdown", "number", "Its countdown setting."),
    ])

    public static let summary = APIClass("workout.Summary", "`summary`: what `on_finish` receives.", [
        APIField("completed", "boolean", "True when the last segment ended, false when the workout was stopped."),
        APIField("segments_done", "integer", "Segments that ended, run out or skipped."),
        APIField("segments_skipped", "integer", "Segments ended early with `skip()` or the `n` key."),
        APIField("segments", "integer", "Segments in the timeline; for an open-ended workout, the segments it reached."),
        APIField("elapsed", "number", "Workout seconds from start to end, pauses included (as the history records it)."),
        APIField("active", "number", "`elapsed` less the time spent paused."),
        APIField("work_seconds", "number", "Seconds spent in `work` segments."),
        APIField("speed", "number", "How many times faster than real time it ran (`--speed`); 1 normally."),
        APIField("scores", "table<string, number>", "What `record` kept: the last value per name."),
    ])

    public static let progress = APIClass("workout.Progress", "`run`: what a `generate` function receives, the same table updated before each resume (`coroutine.yield` returns it too).", [
        APIField("index", "integer", "The number the next segment will have."),
        APIField("elapsed", "number", "Workout seconds done so far, pauses not counted; in `workout plan`, the planned seconds."),
    ])

    public static let parameter = APIClass("workout.Parameter", "The full form of a parameter in `params{}`.", [
        APIField("default", "number|string|boolean", "The value when `--set` does not give one."),
        APIField("type", "\"integer\"|\"number\"|\"duration\"|\"string\"|\"boolean\"", optional: true,
                 "The type `--set` text must have; by default the default's type (text that reads as a duration is a duration)."),
        APIField("help", "string", optional: true, "One line shown by `workout plan` and `workout list`."),
    ])

    public static let note = APIClass("workout.Note", "One note of `tone{}` or of a sound in `sounds`: a sine that fades in and out.", [
        APIField("hz", "number", "Its pitch, 20 to 20000 Hz."),
        APIField("ms", "number", "Its length, 10 to 5000 ms."),
        APIField("volume", "number", optional: true, "0 to 1 of the player's volume (`--volume`); default 1."),
    ])

    public static let all: [APIClass] = [step, routine, segmentSpec, roundsOptions, recordOptions, workoutSpec, segment, started,
                                         summary, progress, parameter, note, sample]
}
