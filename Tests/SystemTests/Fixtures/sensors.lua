-- The sensor tests' routine: two segments with power targets (a steady 200 W, then a
-- ramp of 50–100 % of FTP), hooks that say what the sensors gave.
return workout {
  name = "Sensors",
  countdown = 0,
  on_sample = function(seg, s)
    print("on_sample " .. seg.index .. " hr=" .. tostring(s.hr) .. " power=" .. tostring(s.power)
      .. " zone=" .. tostring(s.hr_zone))
  end,
  segment{ kind = "work", name = "Ride", duration = 3, info = { watts = 200 },
           cues = { [2] = function() print("cue sensor.hr=" .. tostring(sensor.hr)) end } },
  segment{ kind = "rest", name = "Easy", duration = 3, info = { power = { low = 50, high = 100 }, ramp = true } },
}
