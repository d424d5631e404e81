-- The treadmill control test: each step's pace (and incline) set on the belt, a 400 m
-- step ended by the belt's distance.
return workout {
  name = "Treadmill steps",
  countdown = 0,
  warmup{ duration = 2, info = { pace = "6:00/km", incline = 1 } },
  work{ distance = 400, name = "Rep", cap = 60, info = { pace = "5:00/km", incline = 2.5 } },
  rest{ duration = 2, info = { pace = "7:30/km" } },
}
