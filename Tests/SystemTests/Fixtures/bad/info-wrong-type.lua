-- error: info-wrong-type.lua:2: work: info must be a table, got "fast"
return workout { name = "x", work(20, "Squats", "fast") }
