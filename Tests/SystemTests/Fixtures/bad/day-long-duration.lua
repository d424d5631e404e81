-- error: day-long-duration.lua:2: cooldown: duration must be at most 24 hours, got 86401
return workout { name = "x", cooldown(86401) }
