-- The runner's sensor tests' routine: a short warm-up, a 400 m step that the belt's
-- distance ends (its cap far beyond), and a short rest.
return workout {
  name = "Treadmill 400",
  countdown = 0,
  warmup(2),
  work{ distance = 400, name = "Rep", cap = 60, info = { pace = "6:00/km" } },
  rest(2),
  on_sample = function(seg, s)
    if s.distance then print("on_sample " .. seg.index .. " distance=" .. s.distance .. " pace=" .. tostring(s.pace)) end
  end,
}
