-- error: workout-name-number.lua:2: workout: name must be a non-empty string, got 5
return workout { name = 5, work(20) }
