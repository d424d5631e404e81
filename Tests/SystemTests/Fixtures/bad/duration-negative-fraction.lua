-- error: duration-negative-fraction.lua:2: work: duration must be more than 0 seconds, got -0.5
return workout { name = "x", work(-0.5) }
