-- error: zero-duration.lua:2: work: duration must be more than 0 seconds, got 0
return workout { name = "x", work(0) }
