import IntervalEngine
import WorkoutValues

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
        APIAlias(name: "workout.SoundChoice", type: "string|false|workout.SoundFile|workout.Note|workout.Note[]",
                 doc: "A sound: a built-in one's name (`\"pip\"`, `\"go\"`, `\"rest\"`, `\"start\"`, `\"finish\"`, `\"pause\"`, `\"resume\"`), a sound file's name (`\"gong.ogg\"`, beside the routine or in `$XDG_CONFIG_HOME/workout/sounds`), a file with its volume `{ file =, volume = }`, a note `{ hz =, ms =, volume = }` or a list of notes; `false` is silence."),
        APIAlias(name: "workout.Cues", type: "table<number|\"half\", string|fun(seg: workout.Segment)>",
                 doc: "Moments inside a segment: keys are seconds from the start (`[10]`), from the end (`[-5]`), or `half`; values are text (shown, spoken with `--voice`) or a function."),
    ]

    public static let step = APIClass("workout.Step", "A step of a routine: a segment, a `rounds` block or a `generate`. Put it in `workout{}` or in `rounds`.", [])

    public static let routine = APIClass("workout.Routine", "The built routine; a routine file returns it.", [])

    public static let segmentSpec = APIClass("workout.SegmentSpec", "The full form of a segment, for `segment{}`.", [
        APIField("kind", "string", "What the segment is: `work`, `rest`, `warmup`, `cooldown`, `prep` (each has its colour) or any other word."),
        APIField("duration", "workout.Duration", optional: true, "How long it lasts (none for an `open` segment)."),
        APIField("name", "string", optional: true, "Shown and spoken; defaults to the kind, capitalised."),
        APIField("info", "table", optional: true, "The payload: handed back as `seg.info` on every fire, the same table each time."),
        APIField("cues", "workout.Cues", optional: true, "Cues inside the segment: `{ [10] = \"…\", [-5] = fn, half = \"…\" }`."),
        APIField("on_start", segmentHook, optional: true, "Runs when this segment starts, before `on_segment_start`."),
        APIField("on_end", segmentHook, optional: true, "Runs when this segment ends, before `on_segment_end`."),
        APIField("open", "boolean", optional: true, "Ends when the athlete says so (Enter, DONE, SIGUSR1) or a hook calls `done()`, not at a duration: a set, a lap. Its clock counts up; the next segment starts when it is done."),
        APIField("cap", "workout.Duration", optional: true, "With `open`: the longest it may run; it ends there (`by = \"cap\"`)."),
        APIField("expect", "workout.Duration", optional: true, "With `open`: how long it is expected to take, for `plan` and `--dry-run` (default: the cap, else 60 s)."),
        APIField("distance", "number|string", optional: true, "Makes it open and ends it when a treadmill's, rower's or foot pod's distance has covered this many metres (`400`, or `\"400m\"`, `\"1.5km\"`, `\"2mi\"`; `by = \"distance\"`). Give a `cap` as the fallback without a distance source; `plan` counts it at `info.pace`, else at 6:00/km."),
        APIField("hr", "number[]", optional: true, "A heart-rate band, `{ 135, 145 }` (beats a minute): a connected trainer's watts are steered to hold it, slowly (small steps at most every 30 s, cut fast, within 40–120 % of the FTP), on top of the segment's own `watts` or `power`; with a `pace` target, a treadmill's speed (up to `max_speed`)."),
        APIField("until_hr_below", "number", optional: true, "Makes it open and ends it when a heart-rate sensor reads below this many beats per minute (`by = \"sample\"`)."),
        APIField("until_sample", "fun(s: workout.Sample): boolean", optional: true, "Makes it open and ends it when this returns true for a sensors' sample (checked at each one, at most once a second). (`until` is a Lua keyword.)"),
    ])

    /// The fields `for_time{}` and `amrap{}` share with `segment{}`.
    private static func segmentFields(_ names: [String]) -> [APIField] {
        names.compactMap { name in segmentSpec.fields.first { $0.name == name } }
    }

    public static let forTimeSpec = APIClass("workout.ForTimeSpec", "What `for_time{}` takes: an open work segment that records its time.",
        [APIField("cap", "workout.Duration", optional: true, "The time cap: at it the segment ends, and records `capped` and the tallies instead of a time.")]
        + segmentFields(["name", "info", "cues", "on_start", "on_end", "expect"]))

    public static let amrapSpec = APIClass("workout.AmrapSpec", "What `amrap{}` takes: a work segment that records the `rounds` tally when it ends.",
        [APIField("minutes", "number", optional: true, "How long it lasts, in minutes (or `duration`)."),
         APIField("duration", "workout.Duration", optional: true, "How long it lasts, if not in `minutes`.")]
        + segmentFields(["name", "info", "cues", "on_start", "on_end"]))

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
        APIField("sounds", "table<string, workout.SoundChoice>", optional: true, "What plays when, with sound on: keys `countdown`, `finish`, `pause`, `resume`, `start` (kinds not listed) or a segment kind (`work`, `rest`, …); each a sound's or a sound file's name, `{ file =, volume = }`, notes, or `false` for none. Defaults: `countdown = \"pip\"`, `work = \"go\"`, `rest = \"rest\"`, `start = \"start\"`, `finish = \"finish\"`."),
        APIField("sound_files", "string[]", optional: true, "Sound files the hooks play with `sound(\"knock.ogg\")`, besides those in `sounds`: each is decoded when the routine loads (a file is never read while it runs)."),
        APIField("on_start", "fun(w: workout.Started)", optional: true, "Runs when the workout starts, before the first segment."),
        APIField("on_segment_start", segmentHook, optional: true, "Runs as each segment starts."),
        APIField("on_segment_end", segmentHook, optional: true, "Runs as each segment ends (also when skipped)."),
        APIField("on_pause", segmentHook, optional: true, "Runs when the workout pauses."),
        APIField("on_resume", segmentHook, optional: true, "Runs when the workout resumes."),
        APIField("on_finish", "fun(summary: workout.Summary)", optional: true, "Runs when the workout ends, finished or stopped."),
        APIField("on_tally", "fun(seg: workout.Segment, name: string, value: integer)", optional: true, "Runs when a tally counts (`r`, the page's +1): its name and new value."),
        APIField("on_lap", "fun(seg: workout.Segment, split: number)", optional: true, "Runs when the athlete presses lap (`l`): the split in seconds."),
        APIField("on_sample", "fun(seg: workout.Segment, s: workout.Sample)", optional: true, "Runs when a Bluetooth sensor's values come in, at most once a second."),
    ])

    /// A field for each `SensorQuantity`, from its description.
    public static let sample = APIClass("workout.Sample", "`s` of `on_sample`, and the global `sensor`: the sensors' latest values (nil when no sensor gives one, or it dropped out).",
        SensorQuantity.allCases.map { APIField($0.key, $0.isWhole ? "integer" : "number", optional: true, $0.described) }
        + [APIField("hr_zone", "integer", optional: true, "Heart-rate zone 1–5, with `--set max_hr=`.")])

    public static let segment = APIClass("workout.Segment", "`seg`: the segment a hook or cue runs for.", [
        APIField("index", "integer", "Its position in the flattened timeline, from 1."),
        APIField("count", "integer", optional: true, "How many segments the timeline has; nil when the workout is open-ended (it has a `generate`)."),
        APIField("name", "string", "Its name."),
        APIField("kind", "string", "Its kind: `work`, `rest`, …"),
        APIField("duration", "number", "Its planned length in seconds (an open segment's: what it is expected to take)."),
        APIField("start", "number", "Its planned start, in seconds from the workout's start."),
        APIField("round", "integer", optional: true, "The round of the innermost `rounds` block it is in (nil outside one)."),
        APIField("rounds", "integer", optional: true, "How many rounds that block has."),
        APIField("block", "string", optional: true, "That block's `name`."),
        APIField("info", "table", optional: true, "Its payload: the same table on every call, shared by every round of a repeated step."),
        APIField("elapsed", "number", "Seconds done in this segment."),
        APIField("remaining", "number", optional: true, "Seconds left in this segment (an open segment's: to its cap; nil without one)."),
        APIField("open", "boolean", optional: true, "True when it ends when the athlete says so."),
        APIField("cap", "number", optional: true, "An open segment's cap, in seconds."),
        APIField("distance", "number", optional: true, "A distance step's metres (it ends when they are covered)."),
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
        APIField("from_history", "fun(h: workout.History): any, string?", optional: true, "Decides the value from the routine's history (`h`, the global `history`): return the value, or nil for the default, and why (`plan` shows it). `--set` always wins."),
    ])

    public static let history = APIClass("workout.History", "`history`: the routine's own past sessions (matched by its name), newest first, read-only. `history[1]` is the newest, `#history` counts them; it is empty with `--no-history`.", [
        APIField("count", "fun(filter?: workout.HistoryFilter|fun(e: workout.HistoryEntry): boolean): integer", "How many sessions match: `history.count{ completed = true }`."),
        APIField("last", "fun(filter?: workout.HistoryFilter|fun(e: workout.HistoryEntry): boolean): workout.HistoryEntry?", "The newest session that matches, or nil."),
        APIField("best", "fun(name: string): number?", "The best value a score has had (by its `better`), or nil."),
        APIField("latest", "fun(name: string): number?", "The newest value of a score, or nil."),
        APIField("days_since", "fun(filter?: workout.HistoryFilter|fun(e: workout.HistoryEntry): boolean): integer?", "Whole days since the newest matching session (0: today), or nil."),
    ])

    public static let historyFilter = APIClass("workout.HistoryFilter", "What a session must have to match, in `history.count{…}`, `history.last{…}` and `history.days_since{…}`.", [
        APIField("completed", "boolean", optional: true, "Finished (true) or stopped (false)."),
    ])

    public static let historyEntry = APIClass("workout.HistoryEntry", "One past session, read-only.", [
        APIField("date", "string", "When it started: ISO 8601 with the local offset."),
        APIField("ended", "string", "When it ended."),
        APIField("days_ago", "integer", "Whole local days since it started (0: today)."),
        APIField("completed", "boolean", "True when it ran to its end."),
        APIField("elapsed", "number", "Seconds from start to end, pauses included."),
        APIField("active", "number", optional: true, "`elapsed` less the time paused (nil for sessions recorded before it was kept)."),
        APIField("work_seconds", "number", "Seconds of `work`."),
        APIField("segments_done", "integer", "Segments that ended."),
        APIField("segments", "integer", "Segments it had."),
        APIField("speed", "number", "`--speed` it ran at."),
        APIField("params", "table<string, any>", "The parameters it ran with (defaults, `--set` and history's values)."),
        APIField("scores", "table<string, number>", "What it recorded: the last value per name."),
        APIField("better", "table<string, \"higher\"|\"lower\">", "Which way each score is better."),
        APIField("open", "{index: integer, name: string, seconds: number, by: string, laps: number[], hr?: workout.HeartRateSummary, power?: {avg: number}}[]", "Its open segments: how long each took, how it ended, its laps, and heart rate and power during each when sensors gave them."),
        APIField("hr", "workout.HeartRateSummary", optional: true, "Heart rate over the session, when a sensor gave it."),
        APIField("power", "{avg: number}", optional: true, "Average power (watts, weighted by time), when a sensor gave it."),
        APIField("rpe", "integer", optional: true, "How hard it was, 1 (very easy) to 10 (all out), when the athlete rated it at its end."),
        APIField("feel", "integer", optional: true, "How the athlete felt, 1 (strong) to 5 (weak), when they said."),
    ])

    public static let heartRateSummary = APIClass("workout.HeartRateSummary", "Heart rate over a past session or one of its open segments.", [
        APIField("avg", "number", optional: true, "Beats per minute, weighted by time."),
        APIField("max", "integer", "The highest."),
        APIField("zones", "number[]", "Seconds in zones 1–5 (zeros without `max_hr`)."),
    ])

    public static let note = APIClass("workout.Note", "One note of `tone{}` or of a sound in `sounds`: a sine that fades in and out.", [
        APIField("hz", "number", "Its pitch, 20 to 20000 Hz."),
        APIField("ms", "number", "Its length, 10 to 5000 ms."),
        APIField("volume", "number", optional: true, "0 to 1 of the player's volume (`--volume`); default 1."),
    ])

    public static let soundFile = APIClass("workout.SoundFile", "A sound file in `sounds`, with its volume.", [
        APIField("file", "string", "Its name: beside the routine, or in `$XDG_CONFIG_HOME/workout/sounds`."),
        APIField("volume", "number", optional: true, "0 to 1 of the player's volume (`--volume`); default 1."),
    ])

    public static let all: [APIClass] = [step, routine, segmentSpec, forTimeSpec, amrapSpec, history, historyFilter, historyEntry, heartRateSummary, roundsOptions, recordOptions, workoutSpec, segment, started,
                                         summary, progress, parameter, note, soundFile, sample]
}
