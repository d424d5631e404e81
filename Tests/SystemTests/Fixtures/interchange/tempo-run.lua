-- tempo-run.lua: "Tempo run", imported from tempo-run.txt (intervals.icu workout text)
-- by `workout import`. An ordinary routine now: change it as you like, then `workout
-- check tempo-run`.
--
-- Each segment's info holds its targets — hr: percent of your maximum heart rate; lthr:
-- percent of your threshold heart rate; hr_zone: a heart-rate zone; pace: percent of
-- your threshold pace, or a pace; pace_zone: a pace zone. The hook at the end shows them
-- as each segment starts.

-- 105, or { low = 95, high = 105 }, with its unit: "95-105% FTP".
local function amount(value, unit)
  if type(value) == "table" then return value.low .. "-" .. value.high .. unit end
  return value .. unit
end

-- What to aim for, in one line: "88% FTP · 90 rpm".
local function aim(info)
  local parts = {}
  if info.hr then parts[#parts + 1] = amount(info.hr, "% HR") end
  if info.lthr then parts[#parts + 1] = amount(info.lthr, "% LTHR") end
  if info.hr_zone then parts[#parts + 1] = info.hr_zone .. " HR" end
  if info.pace then
    parts[#parts + 1] = type(info.pace) == "string" and info.pace .. " pace" or amount(info.pace, "% pace")
  end
  if info.pace_zone then parts[#parts + 1] = info.pace_zone .. " pace" end
  return table.concat(parts, " · ")
end

return workout {
  name = "Tempo run",

  warmup("15:00", "Warm up", { hr_zone = "Z2" }),
  work("1:30", "Strides", { pace = 85 }),
  rounds(2, {
    work("10:00", { lthr = 95 }),
    work("2:30", "Jog", { hr = 70 }),
  }, { name = "Tempo" }),
  work("8:00", { pace = "4:50/km" }),
  cooldown("10:00", "Cool down", { pace_zone = "Z1-Z2" }),

  -- Shows what to aim for as each segment starts.
  on_segment_start = function(seg)
    if seg.info then print(aim(seg.info)) end
  end,
}
