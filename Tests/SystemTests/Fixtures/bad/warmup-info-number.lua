-- error: warmup-info-number.lua:2: warmup: info must be a table, got 5
return workout { name = "x", warmup(60, "Warm up", 5) }
