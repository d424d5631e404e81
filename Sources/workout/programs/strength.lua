-- strength.lua: 5×5 of three lifts, each set ended by you and its rest started by it.
--
--   workout run strength                     squat, bench press, row: 5 sets of 5
--   workout run strength --set squat="100 kg" --set rest=2m --set heavy_rest=4m
--   workout run strength --serve             the phone's DONE button ends each set
--
-- A set lasts as long as it takes: press Enter (DONE on the page, or `kill -USR1 PID`
-- from a foot pedal) when you rack the bar. The rest starts that moment, with its
-- countdown and sounds on time from there; the next set starts when the rest is over.
-- Each set's real length goes into the history (`workout history export`). The last
-- lift's sets get the longer rest.

local p = params {
  sets = { default = 5, help = "sets of each lift" },
  reps = { default = 5, help = "repetitions in a set" },
  squat = { default = "60 kg", help = "the squat's weight" },
  bench = { default = "40 kg", help = "the bench press's weight" },
  row = { default = "40 kg", help = "the barbell row's weight" },
  rest = { default = "1:30", help = "the rest after a set" },
  heavy_rest = { default = "3:00", help = "the rest between two lifts" },
  cap = { default = "3:00", help = "the longest a set may take" },
}

local lifts = {
  { name = "Squat", weight = p.squat },
  { name = "Bench press", weight = p.bench },
  { name = "Barbell row", weight = p.row },
}

local steps = { warmup("5:00", "Warm up", { text = "Empty bar, 2 sets of 5 of each lift" }) }
for position, lift in ipairs(lifts) do
  -- One lift: its sets, each open (ended by you) and followed by a rest.
  steps[#steps + 1] = rounds(p.sets, {
    work { open = true, cap = p.cap, expect = 45,
           name = string.format("%s %d×%d", lift.name, p.sets, p.reps),
           info = { weight = lift.weight, reps = p.reps, text = "Enter when the bar is racked" } },
    rest(p.rest, "Rest"),
  }, { name = lift.name, skip_last_rest = true })
  if position < #lifts then steps[#steps + 1] = rest(p.heavy_rest, "Change the bar") end
end
steps[#steps + 1] = cooldown("5:00", "Stretch")

steps.name = "Strength 5×5"
steps.description = "Squat, bench press and row, 5 sets of 5, each set ended by you"
steps.on_segment_end = function(seg)
  if seg.info and seg.info.weight then
    print(string.format("%s: set %d at %s in %.0f s", seg.block, seg.round, seg.info.weight, seg.elapsed))
  end
end
return workout(steps)
