-- error: duration-zero-clock.lua:2: work: duration "0:00" must be more than 0 seconds
return workout { name = "x", work("0:00") }
