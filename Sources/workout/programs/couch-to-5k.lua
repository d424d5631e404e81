-- couch-to-5k.lua: one run of a nine-week plan from walking to running 5 km.
--
--   workout run couch-to-5k --voice         the next run: it follows on from your history
--   workout plan couch-to-5k                which run is next, and why
--   workout plan couch-to-5k --set week=4 --set day=1    see what week 4 asks of you
--
-- Three runs a week; each week's runs are the same (in weeks 5 and 6 this is the
-- first run of the week). Every run starts with a 5-minute brisk walk and ends with a
-- 5-minute walk. The plan moves on by itself: after a run you finished comes the next
-- day (after day 3, the next week); a run you stopped early is the next one again.
-- If a week feels too hard, repeat it: --set week=N --set day=1 (--set always wins).

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


-- The run after the newest session: the next day after one that was finished, the same
-- day again after one stopped early. `h` is the routine's own history, newest first.
local function next_run(h)
  local last = h.last()
  if last == nil then return nil end
  local week, day = last.params.week or 1, last.params.day or 1
  local done = string.format("W%dD%d", week, day)
  if not last.completed then return week, day, done .. " was stopped early: again" end
  if day < 3 then return week, day + 1, "after " .. done end
  if week < #WEEKS then return week + 1, 1, "after " .. done .. ": a new week" end
  return week, day, "the plan is done: " .. done .. " again"
end

local p = params {
  week = { default = 1, help = "the week of the plan, 1 to 9",
           from_history = function(h)
             local week, _, why = next_run(h)
             return week, why
           end },
  day = { default = 1, help = "the run of the week, 1 to 3",
          from_history = function(h)
            local _, day, why = next_run(h)
            return day, why
          end },
  warmup = { default = "5:00", help = "the brisk walk before and after" },
}

-- A routine may check its own parameters: error() names this line and the --set.
local plan = WEEKS[p.week]
if not plan then error("week must be 1 to " .. #WEEKS .. ", got " .. p.week) end
if p.day < 1 or p.day > 3 then error("day must be 1 to 3, got " .. p.day) end

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

-- One name for every run, so that the history is one routine's (`history` matches it).
steps.name = "Couch to 5K"
steps.description = string.format("Week %d, day %d: %d minutes of running in %d runs", p.week, p.day,
                                  running // 60, #plan)
steps.on_start = function()
  print(string.format("Week %d, day %d", p.week, p.day))
end
steps.on_segment_start = function(seg)
  say(seg.name)                                   -- "Run", "Walk": heard, not read
  if seg.name == "Run" and seg.index == seg.count - 1 then print("Last run: you've got this") end
end
steps.on_finish = function(summary)
  if summary.completed then
    notify(string.format("Week %d, day %d done", p.week, p.day),
           string.format("%d minutes of running", summary.work_seconds // 60))
  end
end
return workout(steps)
