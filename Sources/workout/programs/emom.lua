-- emom.lua: "every minute on the minute" for 10 minutes, alternating two exercises.
--
--   workout run emom              (add --voice to hear the cues)
--   workout plan emom
--
-- At the top of each minute, do the reps. Whatever is left of the minute is your rest.
-- If you can't finish the reps inside the minute, lower them next time; if you have
-- more than 30 s left over, raise them. Change the two lines in `pair` below.

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
  minute("Kettlebell swings", 15, "Push-ups"),
  minute("Push-ups", 10, "Kettlebell swings"),
}

-- State for the hooks below: locals of the chunk live as long as the run does.
local minutes = 0      -- minutes started so far
local totals = {}      -- reps done, per exercise, counted as each minute ends

return workout {
  name = "EMOM 10",
  description = "Every minute on the minute for 10 minutes: swings and push-ups",
  countdown = 3,                        -- three beeps before each new minute

  prep("0:15", "Get set", { tip = "kettlebell in front of you, hands ready" }),

  rounds(5, pair, { name = "EMOM" }),   -- 5 x 2 minutes = 10 minutes

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
