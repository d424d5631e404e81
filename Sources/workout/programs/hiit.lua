-- hiit.lua: a 24-minute high-intensity interval session, no equipment needed.
--
--   workout run hiit              (add --voice to hear the exercise names)
--   workout plan hiit             to see every interval first
--
-- Warm-up, then two circuits of four exercises (40 s work / 20 s rest), each done
-- twice with a longer rest between the two rounds, a breather, and a cool-down. Swap
-- exercises in the two lists below to make it yours.

local WORK = "40s"   -- every work interval
local REST = "20s"   -- the rest between two exercises
local ROUND_REST = "40s"   -- the rest between two rounds of a circuit

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
  for i, e in ipairs(exercises) do
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

return workout {
  name = "HIIT 24",
  description = "Warm-up, two 40/20 circuits done twice each, cool-down",
  countdown = 3,

  -- Warm-up: a few easy minutes that get gradually bigger.
  warmup("1:00", "Jog in place", { tip = "easy pace, loose shoulders" }),
  warmup("0:30", "Arm circles", { tip = "forwards, then backwards" }),
  warmup("0:45", "Leg swings", { tip = "hold a wall, switch legs halfway" }),
  warmup("0:45", "Inchworms", { tip = "walk the hands out to a plank and back" }),
  warmup("0:30", "Get ready"),

  -- `rest_between` puts a rest between the rounds, not after the last one.
  rounds(2, lower_body, { name = "Lower body", rest_between = ROUND_REST }),

  rest("1:30", "Break", { tip = "walk around, sip some water" }),

  rounds(2, upper_and_core, { name = "Upper body & core", rest_between = ROUND_REST }),

  cooldown("0:30", "Walk it off", { tip = "slow your breathing down" }),
  cooldown("1:00", "Hamstring stretch", { tip = "30 s each leg" }),
  cooldown("1:00", "Quad stretch", { tip = "30 s each leg" }),
  cooldown("0:30", "Child's pose"),

  -- Name each exercise as it starts: shown in the log, and spoken with --voice.
  on_segment_start = function(seg)
    local info = seg.info or {}
    if seg.kind == "work" then
      say(seg.name)
      local goal = info.reps == "max" and "as many as you can" or (info.reps .. " reps")
      print(string.format("%s, round %d/%d: %s. %s", seg.block, seg.round, seg.rounds, goal, info.tip or ""))
    elseif info.tip then
      print(info.tip)
    end
  end,

  on_finish = function(summary)
    if summary.completed then
      notify("HIIT done", string.format("%d:%02d of hard work. Nice!",
        summary.work_seconds // 60, math.floor(summary.work_seconds % 60)))
    end
  end,
}
