-- pyramid.lua: work intervals that climb 15-30-45-60 s and come back down.
--
--   workout run pyramid
--   workout run pyramid --set rest_ratio=1      rest as long as the work
--   workout plan pyramid          to see the shape of it
--
-- Each work interval is followed by a rest half as long, so the hardest part sits in
-- the middle. Routines are Lua programs: the whole pyramid below is built by a loop
-- from one list of numbers. Edit STEPS to reshape it (e.g. { 20, 40, 60, 40, 20 }).

local STEPS = { 15, 30, 45, 60, 45, 30, 15 }   -- seconds of work, in order
-- A fractional default (0.5) makes a number parameter: --set rest_ratio=0.75 works.
local p = params { rest_ratio = { default = 0.5, help = "rest as a fraction of the work before it" } }
local REST_RATIO = p.rest_ratio

-- Alternate two movements so no single muscle group takes the whole pyramid.
local MOVES = { "Squat thrusts", "Speed skaters" }
local PEAK = math.max(table.unpack(STEPS))     -- the longest interval

local steps = {
  warmup("2:00", "Warm up", { tip = "march, then jog in place; add arm swings" }),
}

for i, seconds in ipairs(STEPS) do
  local move = MOVES[(i - 1) % #MOVES + 1]     -- 1, 2, 1, 2, ...
  steps[#steps + 1] = work(seconds, move, { level = i, peak = seconds == PEAK })
  if i < #STEPS then                           -- no rest after the last interval
    -- durations may have fractions, but whole seconds are easier to read: round it
    steps[#steps + 1] = rest(math.floor(seconds * REST_RATIO + 0.5))
  end
end

steps[#steps + 1] = cooldown("1:30", "Cool down", { tip = "slow walk, deep breaths" })

-- Work seconds actually done, added up by the hooks. A local of the chunk: every hook
-- below sees (and changes) the same variable for the whole run.
local work_done = 0

-- `workout{}` takes the steps in its array part. Here they are already in a list, so
-- the list itself becomes the workout table and the other fields are added to it.
-- (A plain list is not a step: `workout{ name = "x", steps }` is an error.)
local routine = steps
routine.name = "Pyramid"
routine.description = string.format("Work %s s, rest %g x as long", table.concat(STEPS, "-"), REST_RATIO)
routine.countdown = 3

routine.on_segment_start = function(seg)
  if seg.kind == "work" then
    if seg.info.peak then
      say("Top of the pyramid: " .. seg.duration .. " seconds")
    else
      say(seg.name .. ", " .. seg.duration .. " seconds")
    end
  end
end

routine.on_segment_end = function(seg)
  -- `elapsed` is how long it really ran (less if it was skipped).
  if seg.kind == "work" then work_done = work_done + seg.elapsed end
end

routine.on_finish = function(summary)
  print(string.format("Pyramid: %d s of work (the engine counts %d s)",
    math.floor(work_done), math.floor(summary.work_seconds)))
  notify("Pyramid done", string.format("%d:%02d of work", work_done // 60, math.floor(work_done % 60)))
end

return workout(routine)
