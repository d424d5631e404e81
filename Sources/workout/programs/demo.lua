-- demo.lua: a 40-second tour of every feature of the routine language.
--
--   workout run demo              run it (Ctrl-C stops it)
--   workout plan demo             see the timeline without running it
--   workout run demo --dry-run    run it instantly on a virtual clock, hooks and all
--
-- A routine is an ordinary Lua program that *returns* a workout. Copy this file into
-- ~/.config/workout/programs/ and change it; `workout check mine` tells you if it loads.

-- Plain Lua runs first, while the routine loads. Locals here are shared by every hook
-- below, so they are the place to keep state across the whole run.
local exercises_started = 0

return workout {
  name = "Demo",                                      -- the only required field
  description = "Forty seconds that show every feature of the language",
  countdown = 2,        -- a pip (or the bell) in each of the last 2 s of a segment (0: none)

  -- The steps come in array order. The five short constructors make one segment each:
  --   kind(duration, name?, info?)
  prep("0:03"),                                       -- no name: it is called "Prep"
  warmup("4s", "Arm circles", { tip = "big, slow circles" }),   -- name and info

  -- `segment{}` is the full form: any kind, plus cues and per-segment hooks.
  segment {
    kind = "work",
    duration = "0:06",
    name = "Squats",
    -- `info` is your payload: the engine hands this same table back as `seg.info` on every
    -- hook and cue of this segment, so it can hold state as well as data.
    info = { reps = 8, extended = false },
    cues = {
      -- A cue fires at an offset in seconds: >= 0 counts from the start...
      [1] = "Chest up, weight in your heels",          -- a string is shown (and spoken with --voice)
      -- ..."half" is the midpoint...
      half = function(seg) say("Halfway, " .. math.ceil(seg.remaining) .. " seconds left") end,
      -- ...and < 0 counts back from the end. A function cue can act on the segment.
      [-2] = function(seg)
        if not seg.info.extended then                  -- guard: extend only once
          seg.info.extended = true
          extend(2)                                    -- 2 more seconds for this segment
          print("Two more squats!")
        end
      end,
    },
    on_start = function(seg) print("Do " .. seg.info.reps .. " squats") end,
    on_end = function() bell(); flash() end,           -- an extra bell and flash as the squats end
  },
  rest(3, { tip = "shake out your legs" }),            -- a table as 2nd argument is info

  -- `rounds(n, steps, opts)` repeats steps. Blocks nest to any depth.
  rounds(2, {
    rounds(2, {
      work("3", "Jab-cross", { hands = "left, right" }),
      rest("2s"),
    }, { name = "Combo", skip_last_rest = true }),     -- no rest after the last combo
  }, { name = "Sparring", rest_between = "0:02" }),    -- a 2 s rest between the two rounds

  cooldown("4s", "Breathe", { tip = "in for four, out for four" }),

  -- Workout-level hooks. `w` has name, description, segments, duration and countdown.
  on_start = function(w)
    notify(w.name, w.segments .. " segments, " .. w.duration .. " s")
  end,

  -- `seg` has index, count, name, kind, duration, start, round, rounds, block, info,
  -- elapsed and remaining. round/rounds/block belong to the innermost block (nil outside).
  on_segment_start = function(seg)
    if seg.kind == "work" then
      exercises_started = exercises_started + 1
      if seg.block then                                -- inside a rounds block
        print(string.format("%s: round %d of %d (segment %d of %d)",
          seg.block, seg.round, seg.rounds, seg.index, seg.count))
      end
    end
    if seg.info and seg.info.tip then say(seg.info.tip) end
  end,

  on_segment_end = function(seg)
    if seg.kind == "work" then print(seg.name .. " done") end
  end,

  -- These two fire only when the workout pauses and resumes (a hook can call pause());
  -- this demo leaves that out so it runs to the end by itself.
  -- Times in a real run are fractional: round them before showing them.
  on_pause = function(seg) print("Paused with " .. math.ceil(seg.remaining) .. " s of " .. seg.name .. " left") end,
  on_resume = function(seg) say("Back to " .. seg.name) end,

  -- `summary` has completed, segments_done, segments, elapsed and work_seconds.
  -- A stopped workout needs no word from the routine: workout prints its summary.
  on_finish = function(summary)
    if summary.completed then
      notify("Demo done", string.format("%d exercises, %d s of work in %d s",
        exercises_started, math.floor(summary.work_seconds), math.floor(summary.elapsed)))
    end
  end,
}
