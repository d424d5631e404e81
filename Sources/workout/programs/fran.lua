-- fran.lua: "Fran", the classic For Time: 21-15-9 thrusters and pull-ups, with a cap.
--
--   workout run fran                  press Enter when you finish; your time is the score
--   workout run fran --set cap=15m --set weight="43 kg"
--
-- For Time: the clock counts up while you work through 21 thrusters and 21 pull-ups,
-- then 15 of each, then 9. Press Enter (DONE on the page of --serve, or
-- `kill -USR1` from a foot pedal) the moment you finish: the time is recorded as the
-- score `time` (lower is better). Press l at the end of each round for a split. At the
-- cap the workout stops and records `capped`, with the rounds you counted with r.

local p = params {
  cap = { default = "10m", help = "the time cap" },
  weight = { default = "43 kg", help = "the thruster's load, shown as info" },
}

return workout {
  name = "Fran",
  description = "21-15-9 thrusters and pull-ups, for time",

  warmup("5:00", "Warm up", { text = "Light thrusters, hang from the bar" }),
  prep(10, "Get ready"),

  for_time { cap = p.cap, name = "Fran", expect = "5:00",
             info = { text = "21-15-9 thrusters and pull-ups", thrusters = p.weight } },

  cooldown("3:00", "Walk it off"),

  on_lap = function(_, split)
    print(string.format("Round split %d:%02d", split // 60, math.floor(split % 60)))
  end,

  on_finish = function(summary)
    local time = summary.scores.time
    if time then
      notify("Fran", string.format("%d:%02d", time // 60, math.floor(time % 60)))
    elseif summary.scores.capped then
      notify("Fran", "capped at " .. p.cap)
    end
  end,
}
