-- hold-zone2.lua: an hour on a smart trainer at an easy, steady heart rate (zone 2),
-- with the power steered by your heart rather than by a plan.
--
--   workout sensors add C0:FF:EE:…    once: your heart-rate strap and your trainer
--   workout run hold-zone2 --set max_hr=185
--   workout run hold-zone2 --set max_hr=185 --set minutes=90 --set start_watts=150
--
-- Zone 2 is 60-70 % of your maximum heart rate. Every few seconds (`on_sample`, at
-- most once a second) the routine looks at your heart rate and nudges the trainer's
-- target power (`erg`) by a few watts: up when you are below the zone, down when you
-- are above it, never below 60 W or above the ceiling. Without a heart rate (the strap
-- dropped out) it holds the power where it was.

local p = params {
  minutes = { default = 60, help = "how long to ride in zone 2" },
  max_hr = { default = 185, help = "your maximum heart rate (beats per minute)" },
  start_watts = { default = 130, help = "the power to start from" },
  ceiling = { default = 300, help = "the most the routine may ask for, in watts" },
}

local low, high = p.max_hr * 0.60, p.max_hr * 0.70
local watts = p.start_watts
local last_change = -math.huge

-- One step: a few watts, at most every 15 s, since the heart answers slowly.
local function steer(seg, s)
  if not s.hr or seg.kind ~= "work" then return end
  local now = seg.elapsed
  if now - last_change < 15 then return end
  if s.hr < low then
    watts = math.min(p.ceiling, watts + 5)
  elseif s.hr > high then
    watts = math.max(60, watts - 10)
  else
    return
  end
  last_change = now
  erg(watts)
end

return workout {
  name = "Hold zone 2",
  description = "Heart-rate-steered ERG: power follows your heart rate to keep it in zone 2",
  warmup("10:00", "Warm up", { watts = math.floor(p.start_watts * 0.8) }),
  work(p.minutes * 60, "Zone 2", {
    tip = string.format("hold %d-%d bpm; the trainer follows your heart", math.floor(low), math.floor(high)),
    watts = p.start_watts,
  }),
  cooldown("5:00", "Cool down", { watts = 80 }),
  on_segment_start = function(seg)
    if seg.kind == "work" then last_change = -math.huge end
  end,
  on_sample = steer,
}
