-- error: infinite-duration.lua:2: work: duration must be a finite number of seconds, got inf
return workout { name = "x", work(math.huge) }
