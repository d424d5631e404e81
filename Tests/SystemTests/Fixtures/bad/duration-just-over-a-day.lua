-- error: duration-just-over-a-day.lua:2: work: duration must be at most 24 hours, got 86400.001
return workout { name = "x", work(86400.001) }
