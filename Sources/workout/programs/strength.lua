-- strength.lua: 5×5 of three lifts, each set ended by you and its rest started by it.
--
--   workout run strength                     squat, bench press, row: 5 sets of 5
--   workout run strength --set squat=100 --set rest=2m --set heavy_rest=4m
--   workout run strength --serve             the phone's DONE button ends each set
--
-- A set lasts as long as it takes: press Enter (DONE on the page, or `kill -USR1 PID`
-- from a foot pedal) when you rack the bar. The rest starts that moment, with its
-- countdown and sounds on time from there; the next set starts when the rest is over.
-- Each set's real length goes into the history (`workout history export`).
--
-- The weights progress by themselves: after a session you finished, each lift is
-- `step` kg heavier; after one you stopped early, the same again. `workout plan
-- strength` shows the weights and why; --set squat=100 always wins.

-- A lift's weight from the newest session: `step` more after a finished one.
local function progress(name)
  return function(h)
    local last = h.last()
    if last == nil or last.params[name] == nil then return nil end
    if not last.completed then return last.params[name], "the last session was stopped early: again" end
    return last.params[name] + (last.params.step or 2.5), "+" .. (last.params.step or 2.5) .. " kg after a full session"
  end
end

local p = params {
  sets = { default = 5, help = "sets of each lift" },
  reps = { default = 5, help = "repetitions in a set" },
  step = { default = 2.5, help = "kg added to each lift after a finished session" },
  squat = { default = 60.0, help = "the squat's weight in kg", from_history = progress("squat") },
  bench = { default = 40.0, help = "the bench press's weight in kg", from_history = progress("bench") },
  row = { default = 40.0, help = "the barbell row's weight in kg", from_history = progress("row") },
  rest = { default = "1:30", help = "the rest after a set" },
  heavy_rest = { default = "3:00", help = "the rest between two lifts" },
  cap = { default = "3:00", help = "the longest a set may take" },
}

local function kg(weight) return string.format("%g", weight) end

local lifts = {
  { name = "Squat", weight = kg(p.squat) },
  { name = "Bench press", weight = kg(p.bench) },
  { name = "Barbell row", weight = kg(p.row) },
}

local steps = { warmup("5:00", "Warm up", { text = "Empty bar, 2 sets of 5 of each lift" }) }
for position, lift in ipairs(lifts) do
  -- One lift: its sets, each open (ended by you) and followed by a rest.
  steps[#steps + 1] = rounds(p.sets, {
    work { open = true, cap = p.cap, expect = 45,
           name = string.format("%s %d×%d", lift.name, p.sets, p.reps),
           info = { weight = lift.weight .. " kg", reps = p.reps, text = "Enter when the bar is racked" } },
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
