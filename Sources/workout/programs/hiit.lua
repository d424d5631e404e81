-- hiit.lua: a 24-minute high-intensity interval session, no equipment needed.
--
--   workout run hiit              (add --voice to hear the exercise names)
--   workout run hiit --set blocks=1 --set exercises=3 --set work=30s     a quick one
--   workout plan hiit             to see every interval and the parameters first
--
-- Warm-up, then two circuits of four exercises (40 s work / 20 s rest), each done
-- twice with a longer rest between the two rounds, a breather, and a cool-down. Swap
-- exercises in the two lists below to make it yours.

local p = params {
  blocks = { default = 2, help = "circuits to do: 1 lower body, 2 adds upper body & core, 3+ repeats" },
  rounds = { default = 2, help = "times through each circuit" },
  exercises = { default = 4, help = "exercises per circuit, 1 to 4" },
  work = { default = "40s", help = "every work interval" },
  rest = { default = "20s", help = "the rest between two exercises" },
  round_rest = { default = "40s", help = "the rest between two rounds of a circuit" },
  break_time = { default = "1:30", help = "the breather between two circuits" },
}

-- A routine checks its own parameters: error() stops loading with this file's line
-- and the message, and workout adds the --set that caused it.
if p.blocks < 1 then error("blocks must be at least 1") end
if p.exercises < 1 or p.exercises > 4 then error("exercises must be 1 to 4") end

local WORK = p.work              -- every work interval (seconds)
local REST = p.rest              -- the rest between two exercises
local ROUND_REST = p.round_rest  -- the rest between two rounds of a circuit

-- A helper: one exercise as a work segment, with what to aim for and how to do it.
-- The table becomes the segment's `info`, handed back to the hooks as `seg.info`.
local function exercise(name, reps, tip)
  return work(WORK, name, { reps = reps, tip = tip })
end

-- A circuit is its exercises with a short rest between each two. Building the list
-- with a loop keeps the routine short and makes every block follow the same pattern.
-- There is no rest after the last exercise: `rest_between` (below) adds the longer
-- rest between rounds, and after the final round the next block follows directly.
local function circuit(exercises)
  local steps = {}
  for i = 1, p.exercises do
    local e = exercises[i]
    if i > 1 then steps[#steps + 1] = rest(REST) end
    steps[#steps + 1] = exercise(e[1], e[2], e[3])
  end
  return steps
end

local lower_body = circuit {
  { "Jump squats",       "max", "land softly, knees over toes" },
  { "Alternating lunges", 20,   "back knee just above the floor" },
  { "Skater hops",       "max", "stick each landing for a beat" },
  { "Glute bridges",      25,   "squeeze at the top" },
}

local upper_and_core = circuit {
  { "Push-ups",          "max", "straight line from head to heels; knees down is fine" },
  { "Mountain climbers", "max", "hips level, drive the knees" },
  { "Plank shoulder taps", 30,  "feet wide, don't rock the hips" },
  { "Burpees",           "max", "step back instead of jumping if you need to" },
}

local circuits = {
  { name = "Lower body", steps = lower_body },
  { name = "Upper body & core", steps = upper_and_core },
}

-- The steps as a list, built by a loop: warm-up, the blocks with a break between two,
-- cool-down. `workout{}` takes them in its array part (see the end of the file).
local steps = {
  -- Warm-up: a few easy minutes that get gradually bigger.
  warmup("1:00", "Jog in place", { tip = "easy pace, loose shoulders" }),
  warmup("0:30", "Arm circles", { tip = "forwards, then backwards" }),
  warmup("0:45", "Leg swings", { tip = "hold a wall, switch legs halfway" }),
  warmup("0:45", "Inchworms", { tip = "walk the hands out to a plank and back" }),
  warmup("0:30", "Get ready"),
}
for block = 1, p.blocks do
  local c = circuits[(block - 1) % #circuits + 1]   -- 1, 2, 1, 2, ... for blocks > 2
  if block > 1 then
    steps[#steps + 1] = rest(p.break_time, "Break", { tip = "walk around, sip some water" })
  end
  -- `rest_between` puts a rest between the rounds, not after the last one.
  steps[#steps + 1] = rounds(p.rounds, c.steps, { name = c.name, rest_between = ROUND_REST })
end
for _, stretch in ipairs {
  cooldown("0:30", "Walk it off", { tip = "slow your breathing down" }),
  cooldown("1:00", "Hamstring stretch", { tip = "30 s each leg" }),
  cooldown("1:00", "Quad stretch", { tip = "30 s each leg" }),
  cooldown("0:30", "Child's pose"),
} do
  steps[#steps + 1] = stretch
end

-- The list of steps becomes the workout table; the other fields are added to it.
local routine = steps
routine.name = "HIIT"
routine.description = string.format("Warm-up, %d circuit%s of %d x %g/%g s done %d times, cool-down",
  p.blocks, p.blocks == 1 and "" or "s", p.exercises, WORK, REST, p.rounds)
routine.countdown = 3

-- Name each exercise as it starts: shown in the log, and spoken with --voice.
routine.on_segment_start = function(seg)
  local info = seg.info or {}
  if seg.kind == "work" then
    say(seg.name)
    local goal = info.reps == "max" and "as many as you can" or (info.reps .. " reps")
    print(string.format("%s, round %d/%d: %s. %s", seg.block, seg.round, seg.rounds, goal, info.tip or ""))
  elseif info.tip then
    print(info.tip)
  end
end

routine.on_finish = function(summary)
  if summary.completed then
    notify("HIIT done", string.format("%d:%02d of hard work. Nice!",
      summary.work_seconds // 60, math.floor(summary.work_seconds % 60)))
  end
end

return workout(routine)
