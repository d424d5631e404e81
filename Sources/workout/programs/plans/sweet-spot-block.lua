-- sweet-spot-block.lua: four weeks of sweet spot for a rider new to structured training,
-- three rides a week (Tuesday, Thursday, Saturday) of the bundled `sweet-spot` routine.
--
--   workout week sweet-spot-block --start 2026-11-30     the next seven days
--   workout week sweet-spot-block --start 2026-11-30 --publish    onto intervals.icu
--
-- A plan is a program: each week is decided from the rides done since it started.
--
--   * Each week a little more: 2 x 10 min, then 3 x 10, then 3 x 12.
--   * The fourth week is lighter (2 x 8), to absorb the three before it.
--   * Two rides of a week rated RPE 9 or 10 (how hard was it, asked when a ride of
--     the calendar ends): the next week repeats that one instead of going up.
--   * A missed ride is not lost: it slides to the first free day left in its week.

local STEPS = {
  { sets = 2, minutes = 10 },
  { sets = 3, minutes = 10 },
  { sets = 3, minutes = 12 },
}
local LIGHTER = { sets = 2, minutes = 8 }
local DAYS = { "tue", "thu", "sat" }
local ORDER = { mon = 1, tue = 2, wed = 3, thu = 4, fri = 5, sat = 6, sun = 7 }
local NAMES = { "mon", "tue", "wed", "thu", "fri", "sat", "sun" }

-- Rides of `week` rated 9 or more.
local function hard_rides(past, week)
  local count = 0
  for _, ride in ipairs(past) do
    if ride.week == week and ride.rpe and ride.rpe >= 9 then count = count + 1 end
  end
  return count
end

-- Rides of the plan's routine done in `week`.
local function rides(past, week)
  local count = 0
  for _, ride in ipairs(past) do
    if ride.week == week and ride.program == "Sweet spot" then count = count + 1 end
  end
  return count
end

-- The step a week is at: one up each week, unless the week before was too hard.
local function step(n, past)
  local level = 1
  for week = 2, n do
    if week % 4 ~= 0 and hard_rides(past, week - 1) < 2 then
      level = math.min(level + 1, #STEPS)
    end
  end
  return level
end

return {
  name = "Four weeks of sweet spot",
  start = "2026-11-30",
  weeks = 4,
  sport = "Ride",

  week = function(n, past, today)
    local load = (n % 4 == 0) and LIGHTER or STEPS[step(n, past)]
    local session = { "sweet-spot", sets = load.sets, minutes = load.minutes }
    local days = {}
    if today == nil or today.week ~= n then
      for _, day in ipairs(DAYS) do days[day] = session end
      return days
    end
    -- This week: the rides still to do go on the planned days from today on, and a
    -- missed one on the first free day from today.
    local left = #DAYS - rides(past, n)
    for _, day in ipairs(DAYS) do
      if left > 0 and ORDER[day] >= ORDER[today.day] then
        days[day] = session
        left = left - 1
      end
    end
    for i = ORDER[today.day], 7 do
      if left > 0 and not days[NAMES[i]] then
        days[NAMES[i]] = session
        left = left - 1
      end
    end
    return days
  end,
}
