-- error: duration-day-and-a-second-string.lua:2: work: duration "24h1s" must be at most 24 hours
return workout { name = "x", work("24h1s") }
