-- emom.lua: "every minute on the minute" for 10 minutes, alternating two exercises.
--
--   workout run emom              (add --voice to hear the cues)
--   workout run emom --set rounds=8 --set swings=20      16 minutes, heavier
--   workout plan emom
--
-- At the top of each minute, do the reps. Whatever is left of the minute is your rest.
-- If you can't finish the reps inside the minute, lower them next time; if you have
-- more than 30 s left over, raise them (--set swings=… --set pushups=…).

-- Whole numbers as defaults make whole-number parameters: --set rounds=2.5 is refused.
local p = params {
  rounds = { default = 5, help = "pairs of minutes (5 = 10 minutes)" },
  swings = { default = 15, help = "kettlebell swings each swing minute" },
  pushups = { default = 10, help = "push-ups each push-up minute" },
}

-- One minute of EMOM, built with the full `segment{}` form so it can carry cues.
-- `next_up` is announced near the end so you can get into position.
local function minute(exercise, reps, next_up)
  return segment {
    kind = "work",
    duration = 60,                       -- a plain number is seconds
    name = exercise,
    info = { reps = reps },
    cues = {
      -- offset 0 is the very start of the minute: what to do, as text (and voice)
      [0] = reps .. " " .. exercise .. ", go!",
      -- a function cue can look at the segment when it fires
      [30] = function(seg)
        say("Thirty seconds")
        print("Still working at :30? Drop to " .. math.max(1, seg.info.reps - 2) .. " reps next time.")
      end,
      -- a negative offset counts back from the end of the minute
      [-10] = "Next: " .. next_up,
    },
  }
end

-- The two minutes that alternate. `rounds` repeats the pair, so the minutes go
-- A, B, A, B, ...; the same segment values (and their info tables) are reused each time.
local pair = {
  minute("Kettlebell swings", p.swings, "Push-ups"),
  minute("Push-ups", p.pushups, "Kettlebell swings"),
}

-- State for the hooks below: locals of the chunk live as long as the run does.
local minutes = 0      -- minutes started so far
local totals = {}      -- reps done, per exercise, counted as each minute ends

return workout {
  name = "EMOM " .. p.rounds * #pair,
  description = "Every minute on the minute for " .. p.rounds * #pair .. " minutes: swings and push-ups",
  countdown = 3,                        -- three beeps before each new minute

  prep("0:15", "Get set", { tip = "kettlebell in front of you, hands ready" }),

  rounds(p.rounds, pair, { name = "EMOM" }),   -- 5 x 2 minutes = 10 minutes by default

  cooldown("1m30s", "Stretch", { tip = "chest, shoulders, hamstrings" }),

  on_segment_start = function(seg)
    if seg.info and seg.info.tip then print(seg.info.tip) end
    if seg.block == "EMOM" then
      minutes = minutes + 1
      print(string.format("Minute %d of %d", minutes, seg.rounds * #pair))
    end
  end,

  -- Called when a minute ends, whether it ran out or was skipped
  -- (then `seg.elapsed` is less than `seg.duration`). Either way the reps were done.
  on_segment_end = function(seg)
    if seg.kind == "work" then
      totals[seg.name] = (totals[seg.name] or 0) + seg.info.reps
    end
  end,

  on_finish = function()
    local parts = {}
    for exercise, reps in pairs(totals) do parts[#parts + 1] = reps .. " " .. exercise end
    table.sort(parts)                   -- pairs() has no order; sort for a stable message
    notify("EMOM done", table.concat(parts, ", "))
  end,
}
