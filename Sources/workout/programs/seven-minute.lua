-- seven-minute.lua: the "7-minute workout": 12 exercises, 30 s each, 10 s between.
--
--   workout run seven-minute --voice          hear each exercise as it comes
--   workout run seven-minute --set circuits=3  the full 20-minute version
--   workout plan seven-minute
--
-- Needs only a wall and a chair. The order alternates body parts (legs, upper body,
-- core...) so one part rests while the next works: go hard, and it is over quickly.

local p = params {
  circuits = { default = 1, help = "times through the 12 exercises" },
  work = { default = "30s", help = "each exercise" },
  rest = { default = "10s", help = "the rest after each exercise" },
}

-- Each exercise: a name, and for one-sided ones the word to switch at half time.
local EXERCISES = {
  { "Jumping jacks" }, { "Wall sit" }, { "Push-ups" }, { "Crunches" },
  { "Step-ups onto a chair" }, { "Squats" }, { "Triceps dips on a chair" },
  { "Plank" }, { "High knees" }, { "Lunges", switch = "Switch legs" },
  { "Push-up and rotation" }, { "Side plank", switch = "Switch sides" },
}

-- One circuit, built by a loop. One-sided exercises use the full segment{} form for
-- a cue at `half`; the others use the short work() form.
local circuit = {}
for i, e in ipairs(EXERCISES) do
  if e.switch then
    circuit[#circuit + 1] = segment { kind = "work", name = e[1], duration = p.work, cues = { half = e.switch } }
  else
    circuit[#circuit + 1] = work(p.work, e[1])
  end
  -- The rest names what comes next, so you can get ready.
  local upcoming = EXERCISES[i + 1]
  circuit[#circuit + 1] = rest(p.rest, upcoming and "Next: " .. upcoming[1] or "Rest")
end

return workout {
  name = "7-minute workout",
  description = string.format("%d x 12 exercises, %g s on / %g s off", p.circuits, p.work, p.rest),

  prep(10, "Get ready: jumping jacks first"),
  -- skip_last_rest: no 10 s rest before the minute between circuits or the end.
  rounds(p.circuits, circuit, { name = "Circuit", rest_between = "1:00", skip_last_rest = true }),

  on_segment_start = function(seg)
    if seg.kind == "work" then say(seg.name) end
  end,
}
