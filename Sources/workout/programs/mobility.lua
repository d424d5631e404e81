-- mobility.lua: a gentle 7-minute mobility and stretch flow, talked through with cues.
--
--   workout run mobility --voice        best with voice: eyes closed, no screen
--   workout run mobility --set hold=1m  longer holds
--
-- Each pose is a segment in the full form so it can carry cues: what to do at the
-- start, when to switch sides, when to breathe, and when to come out of it.

local p = params {
  hold = { default = "45s", help = "how long each pose is held" },
  transition = { default = "5s", help = "time to move into the next pose" },
}

-- A pose: `how` is said as it starts; a two-sided pose gets "Switch sides" at half.
local function pose(name, how, two_sided)
  local cues = {
    [0] = how,
    [-5] = "Slowly come out of it",
  }
  if two_sided then cues.half = "Switch sides" else cues[10] = "Breathe out, and sink a little deeper" end
  return segment { kind = "stretch", name = name, duration = p.hold, cues = cues }
end

-- The poses in order, with a short "move" segment before each (its own kind, so the
-- log shows where you are). A plain Lua list, built up in a loop.
local flow = {
  pose("Neck rolls", "Slow circles, both directions", false),
  pose("Cat-cow", "On all fours: arch on the breath in, round on the breath out", false),
  pose("World's greatest stretch", "Lunge, elbow to the instep, then reach up", true),
  pose("Hip flexor stretch", "Kneel on one knee, squeeze the glute, hips forward", true),
  pose("Thread the needle", "From all fours, slide one arm under and rotate", true),
  pose("Forward fold", "Soft knees, let the head hang", false),
  pose("Pigeon", "Front shin across, hips square", true),
  pose("Child's pose", "Knees wide, arms long, breathe into your back", false),
}
local steps = { prep(10, "Find some floor space") }
for i, step in ipairs(flow) do
  if i > 1 then steps[#steps + 1] = segment { kind = "move", name = "Move", duration = p.transition } end
  steps[#steps + 1] = step
end

steps.name = "Mobility flow"
steps.description = #flow .. " poses, " .. p.hold .. " s each, with spoken cues"
steps.countdown = 0            -- no beeps: a stretch should end calmly
steps.on_finish = function(summary)
  if summary.completed then notify("Mobility done", "Nice and loose. Drink some water.") end
end
return workout(steps)
