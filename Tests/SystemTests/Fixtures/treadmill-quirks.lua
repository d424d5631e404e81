-- The quirk tests' routine: a warm-up long enough for a belt to reach its speed (12 km/h,
-- 2.5 %), then 400 m on the belt's distance (its cap well beyond), then a rest in which
-- a slow check of the belt's speed may still come.
return workout {
  name = "Treadmill quirks",
  countdown = 0,
  warmup{ duration = 9, info = { pace = "5:00/km", incline = 2.5 } },
  work{ distance = 400, name = "Rep", cap = 6, info = { pace = "5:00/km" } },
  rest(6),
}
