-- error: workout-description-number.lua:2: workout: description must be a string, got 5
return workout { name = "x", description = 5, work(20) }
