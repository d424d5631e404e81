-- couch-to-5k.lua: one run of a nine-week plan from walking to running 5 km.
--
--   workout run couch-to-5k --set week=1 --voice
--   workout plan couch-to-5k --set week=4      see what week 4 asks of you
--
-- Three runs a week; each week's runs are the same (in weeks 5 and 6 this is the
-- first run of the week). Every run starts with a 5-minute brisk walk and ends with a
-- 5-minute walk. If a week feels too hard, repeat it: there is no hurry.

local p = params {
  week = { default = 1, help = "the week of the plan, 1 to 9" },
  warmup = { default = "5:00", help = "the brisk walk before and after" },
}

-- Each week as a list of { run, walk } minutes; a walk of 0 means none follows.
local WEEKS = {
  { { 1, 1.5 }, { 1, 1.5 }, { 1, 1.5 }, { 1, 1.5 }, { 1, 1.5 }, { 1, 1.5 }, { 1, 1.5 }, { 1, 0 } },
  { { 1.5, 2 }, { 1.5, 2 }, { 1.5, 2 }, { 1.5, 2 }, { 1.5, 2 }, { 1.5, 0 } },
  { { 1.5, 1.5 }, { 3, 3 }, { 1.5, 1.5 }, { 3, 0 } },
  { { 3, 1.5 }, { 5, 2.5 }, { 3, 1.5 }, { 5, 0 } },
  { { 5, 3 }, { 5, 3 }, { 5, 0 } },
  { { 5, 3 }, { 8, 3 }, { 5, 0 } },
  { { 25, 0 } },
  { { 28, 0 } },
  { { 30, 0 } },
}

-- A routine may check its own parameters: error() names this line and the --set.
local plan = WEEKS[p.week]
if not plan then error("week must be 1 to " .. #WEEKS .. ", got " .. p.week) end

local steps = { warmup(p.warmup, "Brisk walk") }
local running = 0
for _, interval in ipairs(plan) do
  local run, walk = interval[1] * 60, interval[2] * 60
  running = running + run
  -- Long runs get a halfway cue; any segment can have them in the full form.
  steps[#steps + 1] = segment { kind = "work", name = "Run", duration = run,
    cues = run >= 300 and { half = "Halfway through this run" } or {} }
  if walk > 0 then steps[#steps + 1] = rest(walk, "Walk") end
end
steps[#steps + 1] = cooldown(p.warmup, "Cool-down walk")

steps.name = "Couch to 5K, week " .. p.week
steps.description = string.format("%d minutes of running in %d runs", running // 60, #plan)
steps.on_segment_start = function(seg)
  say(seg.name)                                   -- "Run", "Walk": heard, not read
  if seg.name == "Run" and seg.index == seg.count - 1 then print("Last run: you've got this") end
end
steps.on_finish = function(summary)
  if summary.completed then
    notify("Week " .. p.week .. " done", string.format("%d minutes of running", summary.work_seconds // 60))
  end
end
return workout(steps)
