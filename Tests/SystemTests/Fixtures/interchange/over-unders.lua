-- over-unders.lua: "Over-Unders 3x6", imported from over-unders.zwo (a Zwift workout) by
-- `workout import`. An ordinary routine now: change it as you like, then `workout check
-- over-unders`.
--
-- Three sets of over-unders around threshold.
-- Ride the overs hard & settle into the unders; finish with a sprint.
--
-- By Coach Kim. Tags: FTP, Threshold.
--
-- Each segment's info holds its targets — power: percent of your FTP; cadence: rpm;
-- max_effort: all out. { low = , high = } is a range, or with ramp = true a ramp from
-- low to high. The hook at the end shows them as each segment starts.

-- 105, or { low = 95, high = 105 }, with its unit: "95-105% FTP".
local function amount(value, unit)
  if type(value) == "table" then return value.low .. "-" .. value.high .. unit end
  return value .. unit
end

-- What to aim for, in one line: "88% FTP · 90 rpm".
local function aim(info)
  local parts = {}
  if info.max_effort then parts[#parts + 1] = "all out" end
  if info.power then
    parts[#parts + 1] = (info.ramp and "ramp " or "") .. amount(info.power, "% FTP")
  end
  if info.cadence then parts[#parts + 1] = amount(info.cadence, " rpm") end
  return table.concat(parts, " · ")
end

return workout {
  name = "Over-Unders 3x6",
  description = "Three sets of over-unders around threshold. Ride the overs hard & settle into " ..
    "the unders; finish with a sprint.",

  segment {
    kind = "warmup",
    duration = "10:00",
    info = { power = { low = 25, high = 75 }, ramp = true, cadence = 85 },
    cues = { [0] = "Easy spin to start", [540] = "One minute to go" },
  },
  work("3:00", { power = 65 }),
  rounds(2, {
    segment {
      kind = "work",
      duration = "2:00",
      info = { power = 105, cadence = 95 },
      cues = { [10] = "Over: push!" },
    },
    rest("1:00", { power = 95, cadence = 85 }),
  }),
  segment {
    kind = "work",
    duration = "2:00",
    info = { power = 105, cadence = 95 },
    cues = { [10] = "Last over!" },
  },
  rest("1:00", { power = 95, cadence = 85 }),
  work("5:00", { power = 50 }),
  rounds(3, {
    work("2:00", { power = 105, cadence = 95 }),
    rest("1:00", { power = 95, cadence = 85 }),
  }),
  work("5:00", "Ramp", { power = { low = 60, high = 90 }, ramp = true }),
  work("5:00", "Free ride"),
  work(20, "Max effort", { max_effort = true }),
  work("4:00", { power = { low = 50.45, high = 55.45 }, cadence = { low = 80, high = 90 } }),
  segment {
    kind = "cooldown",
    duration = "7:00",
    info = { power = { low = 60, high = 30 }, ramp = true },
    cues = { [330] = "Nearly there" },
  },

  -- Shows what to aim for as each segment starts.
  on_segment_start = function(seg)
    if seg.info then print(aim(seg.info)) end
  end,
}
