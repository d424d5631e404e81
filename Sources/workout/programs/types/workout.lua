---@meta
-- The workout routine API for lua-language-server: completion, hover help and type
-- checks in your editor. Generated from the engine's API table by `make definitions`;
-- do not edit. Reference: docs/routines.md.
-- luacheck: ignore

---Seconds (`20`, `2.5`) or text: `"90"`, `"90s"`, `"1:30"`, `"1:02:03"`, `"2m"`, `"1m30s"`, `"1h"`, `"1h5m"`. More than 0, at most 24 hours.
---@alias workout.Duration number|string

---A sound: a built-in one's name (`"pip"`, `"go"`, `"rest"`, `"start"`, `"finish"`, `"pause"`, `"resume"`), a sound file's name (`"gong.ogg"`, beside the routine or in `$XDG_CONFIG_HOME/workout/sounds`), a file with its volume `{ file =, volume = }`, a note `{ hz =, ms =, volume = }` or a list of notes; `false` is silence.
---@alias workout.SoundChoice string|false|workout.SoundFile|workout.Note|workout.Note[]

---Moments inside a segment: keys are seconds from the start (`[10]`), from the end (`[-5]`), or `half`; values are text (shown, spoken with `--voice`) or a function.
---@alias workout.Cues table<number|"half", string|fun(seg: workout.Segment)>

---A step of a routine: a segment, a `rounds` block or a `generate`. Put it in `workout{}` or in `rounds`.
---@class workout.Step

---The built routine; a routine file returns it.
---@class workout.Routine

---The full form of a segment, for `segment{}`.
---@class workout.SegmentSpec
---@field kind string What the segment is: `work`, `rest`, `warmup`, `cooldown`, `prep` (each has its colour) or any other word.
---@field duration? workout.Duration How long it lasts (none for an `open` segment).
---@field name? string Shown and spoken; defaults to the kind, capitalised.
---@field info? table The payload: handed back as `seg.info` on every fire, the same table each time.
---@field cues? workout.Cues Cues inside the segment: `{ [10] = "…", [-5] = fn, half = "…" }`.
---@field on_start? fun(seg: workout.Segment) Runs when this segment starts, before `on_segment_start`.
---@field on_end? fun(seg: workout.Segment) Runs when this segment ends, before `on_segment_end`.
---@field open? boolean Ends when the athlete says so (Enter, DONE, SIGUSR1) or a hook calls `done()`, not at a duration: a set, a lap. Its clock counts up; the next segment starts when it is done.
---@field cap? workout.Duration With `open`: the longest it may run; it ends there (`by = "cap"`).
---@field expect? workout.Duration With `open`: how long it is expected to take, for `plan` and `--dry-run` (default: the cap, else 60 s).
---@field distance? number|string Makes it open and ends it when a treadmill's, rower's or foot pod's distance has covered this many metres (`400`, or `"400m"`, `"1.5km"`, `"2mi"`; `by = "distance"`). Give a `cap` as the fallback without a distance source; `plan` counts it at `info.pace`, else at 6:00/km.
---@field hr? number[] A heart-rate band, `{ 135, 145 }` (beats a minute): a connected trainer's watts are steered to hold it, slowly (small steps at most every 30 s, cut fast, within 40–120 % of the FTP), on top of the segment's own `watts` or `power`; with a `pace` target, a treadmill's speed (up to `max_speed`).
---@field until_hr_below? number Makes it open and ends it when a heart-rate sensor reads below this many beats per minute (`by = "sample"`).
---@field until_sample? fun(s: workout.Sample): boolean Makes it open and ends it when this returns true for a sensors' sample (checked at each one, at most once a second). (`until` is a Lua keyword.)

---What `for_time{}` takes: an open work segment that records its time.
---@class workout.ForTimeSpec
---@field cap? workout.Duration The time cap: at it the segment ends, and records `capped` and the tallies instead of a time.
---@field name? string Shown and spoken; defaults to the kind, capitalised.
---@field info? table The payload: handed back as `seg.info` on every fire, the same table each time.
---@field cues? workout.Cues Cues inside the segment: `{ [10] = "…", [-5] = fn, half = "…" }`.
---@field on_start? fun(seg: workout.Segment) Runs when this segment starts, before `on_segment_start`.
---@field on_end? fun(seg: workout.Segment) Runs when this segment ends, before `on_segment_end`.
---@field expect? workout.Duration With `open`: how long it is expected to take, for `plan` and `--dry-run` (default: the cap, else 60 s).

---What `amrap{}` takes: a work segment that records the `rounds` tally when it ends.
---@class workout.AmrapSpec
---@field minutes? number How long it lasts, in minutes (or `duration`).
---@field duration? workout.Duration How long it lasts, if not in `minutes`.
---@field name? string Shown and spoken; defaults to the kind, capitalised.
---@field info? table The payload: handed back as `seg.info` on every fire, the same table each time.
---@field cues? workout.Cues Cues inside the segment: `{ [10] = "…", [-5] = fn, half = "…" }`.
---@field on_start? fun(seg: workout.Segment) Runs when this segment starts, before `on_segment_start`.
---@field on_end? fun(seg: workout.Segment) Runs when this segment ends, before `on_segment_end`.

---`history`: the routine's own past sessions (matched by its name), newest first, read-only. `history[1]` is the newest, `#history` counts them; it is empty with `--no-history`.
---@class workout.History
---@field count fun(filter?: workout.HistoryFilter|fun(e: workout.HistoryEntry): boolean): integer How many sessions match: `history.count{ completed = true }`.
---@field last fun(filter?: workout.HistoryFilter|fun(e: workout.HistoryEntry): boolean): workout.HistoryEntry? The newest session that matches, or nil.
---@field best fun(name: string): number? The best value a score has had (by its `better`), or nil.
---@field latest fun(name: string): number? The newest value of a score, or nil.
---@field days_since fun(filter?: workout.HistoryFilter|fun(e: workout.HistoryEntry): boolean): integer? Whole days since the newest matching session (0: today), or nil.

---What a session must have to match, in `history.count{…}`, `history.last{…}` and `history.days_since{…}`.
---@class workout.HistoryFilter
---@field completed? boolean Finished (true) or stopped (false).

---One past session, read-only.
---@class workout.HistoryEntry
---@field date string When it started: ISO 8601 with the local offset.
---@field ended string When it ended.
---@field days_ago integer Whole local days since it started (0: today).
---@field completed boolean True when it ran to its end.
---@field elapsed number Seconds from start to end, pauses included.
---@field active? number `elapsed` less the time paused (nil for sessions recorded before it was kept).
---@field work_seconds number Seconds of `work`.
---@field segments_done integer Segments that ended.
---@field segments integer Segments it had.
---@field speed number `--speed` it ran at.
---@field params table<string, any> The parameters it ran with (defaults, `--set` and history's values).
---@field scores table<string, number> What it recorded: the last value per name.
---@field better table<string, "higher"|"lower"> Which way each score is better.
---@field open {index: integer, name: string, seconds: number, by: string, laps: number[], hr?: workout.HeartRateSummary, power?: {avg: number}}[] Its open segments: how long each took, how it ended, its laps, and heart rate and power during each when sensors gave them.
---@field hr? workout.HeartRateSummary Heart rate over the session, when a sensor gave it.
---@field power? {avg: number} Average power (watts, weighted by time), when a sensor gave it.
---@field rpe? integer How hard it was, 1 (very easy) to 10 (all out), when the athlete rated it at its end.
---@field feel? integer How the athlete felt, 1 (strong) to 5 (weak), when they said.

---Heart rate over a past session or one of its open segments.
---@class workout.HeartRateSummary
---@field avg? number Beats per minute, weighted by time.
---@field max integer The highest.
---@field zones number[] Seconds in zones 1–5 (zeros without `max_hr`).

---The options of `rounds`.
---@class workout.RoundsOptions
---@field name? string Labels the block: hooks see it as `seg.block`.
---@field rest_between? workout.Duration Adds a rest of this length between two rounds (none after the last).
---@field skip_last_rest? boolean Drops a rest that ends the last round.

---The options of `record`.
---@class workout.RecordOptions
---@field better? "higher"|"lower" Which way a value is better: `"higher"` (the default: rounds, reps) or `"lower"` (times).

---What `workout{}` takes: fields, hooks and the steps in order.
---@class workout.Spec
---@field [integer] workout.Step
---@field name string The routine's name, shown when it runs.
---@field description? string One line about it, shown by `workout list` and `workout plan`.
---@field countdown? integer Bells (or pips) in the last N seconds of each segment: 0 to 60, default 3, 0 turns them off.
---@field sounds? table<string, workout.SoundChoice> What plays when, with sound on: keys `countdown`, `finish`, `pause`, `resume`, `start` (kinds not listed) or a segment kind (`work`, `rest`, …); each a sound's or a sound file's name, `{ file =, volume = }`, notes, or `false` for none. Defaults: `countdown = "pip"`, `work = "go"`, `rest = "rest"`, `start = "start"`, `finish = "finish"`.
---@field sound_files? string[] Sound files the hooks play with `sound("knock.ogg")`, besides those in `sounds`: each is decoded when the routine loads (a file is never read while it runs).
---@field on_start? fun(w: workout.Started) Runs when the workout starts, before the first segment.
---@field on_segment_start? fun(seg: workout.Segment) Runs as each segment starts.
---@field on_segment_end? fun(seg: workout.Segment) Runs as each segment ends (also when skipped).
---@field on_pause? fun(seg: workout.Segment) Runs when the workout pauses.
---@field on_resume? fun(seg: workout.Segment) Runs when the workout resumes.
---@field on_finish? fun(summary: workout.Summary) Runs when the workout ends, finished or stopped.
---@field on_tally? fun(seg: workout.Segment, name: string, value: integer) Runs when a tally counts (`r`, the page's +1): its name and new value.
---@field on_lap? fun(seg: workout.Segment, split: number) Runs when the athlete presses lap (`l`): the split in seconds.
---@field on_sample? fun(seg: workout.Segment, s: workout.Sample) Runs when a Bluetooth sensor's values come in, at most once a second.

---`seg`: the segment a hook or cue runs for.
---@class workout.Segment
---@field index integer Its position in the flattened timeline, from 1.
---@field count? integer How many segments the timeline has; nil when the workout is open-ended (it has a `generate`).
---@field name string Its name.
---@field kind string Its kind: `work`, `rest`, …
---@field duration number Its planned length in seconds (an open segment's: what it is expected to take).
---@field start number Its planned start, in seconds from the workout's start.
---@field round? integer The round of the innermost `rounds` block it is in (nil outside one).
---@field rounds? integer How many rounds that block has.
---@field block? string That block's `name`.
---@field info? table Its payload: the same table on every call, shared by every round of a repeated step.
---@field elapsed number Seconds done in this segment.
---@field remaining? number Seconds left in this segment (an open segment's: to its cap; nil without one).
---@field open? boolean True when it ends when the athlete says so.
---@field cap? number An open segment's cap, in seconds.
---@field distance? number A distance step's metres (it ends when they are covered).

---`w`: what `on_start` receives.
---@class workout.Started
---@field name string The routine's name.
---@field description? string Its description.
---@field segments? integer How many segments it has; nil when it is open-ended.
---@field duration? number Its planned length in seconds; nil when it is open-ended.
---@field countdown number Its countdown setting.

---`summary`: what `on_finish` receives.
---@class workout.Summary
---@field completed boolean True when the last segment ended, false when the workout was stopped.
---@field segments_done integer Segments that ended, run out or skipped.
---@field segments_skipped integer Segments ended early with `skip()` or the `n` key.
---@field segments integer Segments in the timeline; for an open-ended workout, the segments it reached.
---@field elapsed number Workout seconds from start to end, pauses included (as the history records it).
---@field active number `elapsed` less the time spent paused.
---@field work_seconds number Seconds spent in `work` segments.
---@field speed number How many times faster than real time it ran (`--speed`); 1 normally.
---@field scores table<string, number> What `record` kept: the last value per name.

---`run`: what a `generate` function receives, the same table updated before each resume (`coroutine.yield` returns it too).
---@class workout.Progress
---@field index integer The number the next segment will have.
---@field elapsed number Workout seconds done so far, pauses not counted; in `workout plan`, the planned seconds.

---The full form of a parameter in `params{}`.
---@class workout.Parameter
---@field default number|string|boolean The value when `--set` does not give one.
---@field type? "integer"|"number"|"duration"|"string"|"boolean" The type `--set` text must have; by default the default's type (text that reads as a duration is a duration).
---@field help? string One line shown by `workout plan` and `workout list`.
---@field from_history? fun(h: workout.History): any, string? Decides the value from the routine's history (`h`, the global `history`): return the value, or nil for the default, and why (`plan` shows it). `--set` always wins.

---One note of `tone{}` or of a sound in `sounds`: a sine that fades in and out.
---@class workout.Note
---@field hz number Its pitch, 20 to 20000 Hz.
---@field ms number Its length, 10 to 5000 ms.
---@field volume? number 0 to 1 of the player's volume (`--volume`); default 1.

---A sound file in `sounds`, with its volume.
---@class workout.SoundFile
---@field file string Its name: beside the routine, or in `$XDG_CONFIG_HOME/workout/sounds`.
---@field volume? number 0 to 1 of the player's volume (`--volume`); default 1.

---`s` of `on_sample`, and the global `sensor`: the sensors' latest values (nil when no sensor gives one, or it dropped out).
---@class workout.Sample
---@field hr? integer Heart rate, beats per minute.
---@field power? integer Power, watts.
---@field cadence? number Cadence, rpm.
---@field speed? number Speed, km/h (a trainer's, a treadmill's, a foot pod's).
---@field distance? number Distance, metres covered in the run (a machine's or foot pod's total from its first reading).
---@field pace? number Pace, seconds per kilometre.
---@field split? number Rowing split, seconds per 500 metres.
---@field incline? number Incline, percent.
---@field stroke_rate? number Stroke rate, strokes per minute.
---@field hr_zone? integer Heart-rate zone 1–5, with `--set max_hr=`.

---The routine. A routine file returns it: `return workout { … }`.
---@param spec workout.Spec Name, description, countdown, hooks, and the steps in order.
---@return workout.Routine
function workout(spec) end

---A warm-up segment. A table as the second argument is `info`.
---@param d workout.Duration How long: seconds, or text like `"1:30"`.
---@param name? string Shown and spoken; default `"Warmup"`.
---@param info? table The payload, handed back as `seg.info`.
---@return workout.Step
---@overload fun(d: workout.Duration, info: table): workout.Step
function warmup(d, name, info) end

---A work segment. A table as the second argument is `info`.
---@param d workout.Duration How long: seconds, or text like `"1:30"`.
---@param name? string Shown and spoken; default `"Work"`.
---@param info? table The payload, handed back as `seg.info`.
---@return workout.Step
---@overload fun(d: workout.Duration, info: table): workout.Step
function work(d, name, info) end

---A rest segment. A table as the second argument is `info`.
---@param d workout.Duration How long: seconds, or text like `"1:30"`.
---@param name? string Shown and spoken; default `"Rest"`.
---@param info? table The payload, handed back as `seg.info`.
---@return workout.Step
---@overload fun(d: workout.Duration, info: table): workout.Step
function rest(d, name, info) end

---A cool-down segment. A table as the second argument is `info`.
---@param d workout.Duration How long: seconds, or text like `"1:30"`.
---@param name? string Shown and spoken; default `"Cooldown"`.
---@param info? table The payload, handed back as `seg.info`.
---@return workout.Step
---@overload fun(d: workout.Duration, info: table): workout.Step
function cooldown(d, name, info) end

---A get-ready segment. A table as the second argument is `info`.
---@param d workout.Duration How long: seconds, or text like `"1:30"`.
---@param name? string Shown and spoken; default `"Prep"`.
---@param info? table The payload, handed back as `seg.info`.
---@return workout.Step
---@overload fun(d: workout.Duration, info: table): workout.Step
function prep(d, name, info) end

---A segment in full form: any kind, cues, its own hooks.
---@param spec workout.SegmentSpec The segment's fields.
---@return workout.Step
function segment(spec) end

---For Time: an open work segment (the clock counts up) that, when done, records its time as the score `time` (lower is better); at its cap it records `capped` = 1 and the tallies instead.
---@param spec workout.ForTimeSpec The cap, name and the rest of a segment's fields.
---@return workout.Step
function for_time(spec) end

---As many rounds as possible: a work segment of `minutes` that records the `rounds` tally (`r`, the page's +1) as a score when it ends.
---@param spec workout.AmrapSpec Its minutes, name and the rest of a segment's fields.
---@return workout.Step
function amrap(spec) end

---Repeats steps n times.
---@param n integer How many times, 1 or more.
---@param steps workout.Step[] The steps of one round, in order; may hold further `rounds`.
---@param options? workout.RoundsOptions `name`, `rest_between`, `skip_last_rest`.
---@return workout.Step
function rounds(n, steps, options) end

---An open-ended step: `fn` runs as the workout reaches it, one `coroutine.yield(step)` per step, so it can adapt to what hooks recorded or never end.
---@param fn fun(run: workout.Progress) Yields the steps one at a time with `coroutine.yield(step)`; returning ends it.
---@return workout.Step
function generate(fn) end

---Declares the routine's parameters and returns their values, changed by `--set NAME=VALUE`. Durations come back as seconds.
---@generic T: table
---@param defaults T Each parameter's default, or `{ default = …, type = …, help = … }`.
---@return T
function params(defaults) end

---Rings the terminal bell (unless `--no-bell`).
function bell() end

---Flashes the live display's band, a bell to see across a room (unless `--no-flash`).
function flash() end

---Sends a desktop notification (when notifications are on).
---@param title string The notification's title.
---@param body? string Its text.
function notify(title, body) end

---Speaks text where a synthesizer exists; shown and recorded either way. One call of a hook may say 16 texts; a minute of the hooks' speech may wait at once.
---@param text string What to say: at most 500 bytes.
function say(text) end

---Plays a built-in sound or a sound file now: from a cue's function or a segment's hook, on that moment's second, beside the sounds planned for it (the terminal bell stands in where no sound plays). A file not named in `sounds` or `sound_files` was not decoded when the routine loaded: nothing plays, and its event says so. One call of a hook may play 16 sounds; a minute of the hooks' sounds may wait at once.
---@param name string `"pip"`, `"go"`, `"rest"`, `"start"`, `"finish"`, `"pause"`, `"resume"`, or a sound file the routine names in `sounds` or `sound_files`.
function sound(name) end

---Plays notes of your own now: `tone{ hz = 660, ms = 150 }`. Counted with `sound()`.
---@param notes workout.Note One note `{ hz =, ms =, volume = }`, or a list of them played in order.
---@overload fun(notes: workout.Note[])
function tone(notes) end

---Ends the current segment now.
function skip() end

---Marks the current open segment done, as the athlete's Enter would (`by = "hook"`); nothing for a timed one.
function done() end

---What a tally has counted so far in this workout (0 before its first count).
---@param name string The tally: `"rounds"` is the one `r` and the page's +1 count.
---@return integer
function tally(name) end

---Lengthens (or, negative, shortens) the current segment.
---@param seconds number Seconds to add; negative shortens, and taking all that is left ends the segment, counted as skipped.
function extend(seconds) end

---Pauses the workout; the user resumes it.
function pause() end

---Keeps a score for this session: the last value per name goes into the history, and `workout history stats` shows each name's best.
---@param name string What the number is: `"rounds"`, `"best round"`.
---@param value number The value; a later call with the same name replaces it.
---@param options? workout.RecordOptions `better = "lower"` for times (higher is better by default).
function record(name, value, options) end

---Sets a connected trainer's target power (ERG mode) until the next segment's own target or the next call; nothing without a trainer or with `--no-erg`.
---@param watts integer The target power, 0 to 2000 watts.
function erg(watts) end

---`history`: the routine's own past sessions (matched by its name), newest first, read-only. `history[1]` is the newest, `#history` counts them; it is empty with `--no-history`.
---@type workout.History
history = {}

---The Bluetooth sensors' latest values (nil when none gives one); see `on_sample`.
---@type workout.Sample
sensor = {}

---Only `os.time`, `os.clock`, `os.date` and `os.difftime` exist in a routine.
---@class workout.os
---@field time fun(t?: table): integer
---@field clock fun(): number
---@field date fun(format?: string, time?: integer): string|table
---@field difftime fun(t2: integer, t1?: integer): number
---@type workout.os
os = {}
