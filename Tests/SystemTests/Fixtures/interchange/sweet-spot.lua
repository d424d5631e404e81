-- sweet-spot.lua: "Sweet spot and sprints", imported from sweet-spot.txt (intervals.icu
-- workout text) by `workout import`. An ordinary routine now: change it as you like,
-- then `workout check sweet-spot`.
--
-- Sweet spot blocks, then short sprints.
-- Keep the cadence high in the sprints.
--
-- Each segment's info holds its targets — power: percent of your FTP; watts: watts;
-- zone: a power zone; cadence: rpm; freeride: no target, ride as you like. { low = ,
-- high = } is a range, or with ramp = true a ramp from low to high. The hook at the end
-- shows them as each segment starts.

-- 105, or { low = 95, high = 105 }, with its unit: "95-105% FTP".
local function amount(value, unit)
  if type(value) == "table" then return value.low .. "-" .. value.high .. unit end
  return value .. unit
end

-- What to aim for, in one line: "88% FTP · 90 rpm".
local function aim(info)
  local parts = {}
  if info.freeride then parts[#parts + 1] = "free ride" end
  if info.power then
    parts[#parts + 1] = (info.ramp and "ramp " or "") .. amount(info.power, "% FTP")
  end
  if info.watts then parts[#parts + 1] = amount(info.watts, " W") end
  if info.zone then parts[#parts + 1] = info.zone end
  if info.cadence then parts[#parts + 1] = amount(info.cadence, " rpm") end
  return table.concat(parts, " · ")
end

return workout {
  name = "Sweet spot and sprints",
  description = "Sweet spot blocks, then short sprints. Keep the cadence high in the sprints.",

  warmup("10:00", { power = { low = 50, high = 75 }, ramp = true, cadence = 90 }),
  warmup("3:00", "Spin-ups", { power = 60, cadence = { low = 100, high = 110 } }),
  rounds(3, {
    segment {
      kind = "work",
      duration = "10:00",
      name = "Sweet spot",
      info = { power = { low = 88, high = 92 }, cadence = 90 },
      cues = { [300] = "Halfway, stay smooth", [540] = "One minute" },
    },
    rest("5:00", "Recovery", { power = 55, cadence = 85 }),
  }, { name = "Main set" }),
  rounds(6, {
    work(15, { power = 150, cadence = 110 }),
    work(45, { zone = "Z1" }),
  }, { name = "Sprints" }),
  work("5:00", "Steady", { watts = { low = 200, high = 220 } }),
  work("2:00", { freeride = true }),
  cooldown("5:00", { power = { low = 70, high = 40 }, ramp = true }),

  -- Shows what to aim for as each segment starts.
  on_segment_start = function(seg)
    if seg.info then print(aim(seg.info)) end
  end,
}
