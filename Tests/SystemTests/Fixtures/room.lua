-- The routine of the terminal tests of a display read from across the room: a payload
-- that stays in view while a cue comes, a hook's error, and a line printed at the finish
-- that must outlive the display.
return workout {
  name = "Room test",
  countdown = 0,
  segment {
    kind = "work", duration = 40, name = "Squats",
    info = { tip = "sit back, chest up", reps = 12 },
    cues = { [1] = "Keep going" },
  },
  rest(40, "Breathe", { tip = "in through the nose" }),
  on_start = function() error("boom") end,
  on_finish = function(summary) print("Well done: " .. summary.segments_done .. " segments") end,
}
