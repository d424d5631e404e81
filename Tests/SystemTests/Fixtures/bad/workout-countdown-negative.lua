-- error: workout-countdown-negative.lua:2: workout: countdown must be a whole number of seconds from 0 to 60, got -1
return workout { name = "x", countdown = -1, work(20) }
