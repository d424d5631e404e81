-- error: workout-countdown-fraction.lua:2: workout: countdown must be a whole number of seconds from 0 to 60, got 2.5
return workout { name = "x", countdown = 2.5, work(20) }
