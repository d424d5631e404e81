-- error: workout-countdown-string.lua:2: workout: countdown must be a whole number of seconds from 0 to 60, got "3"
return workout { name = "x", countdown = "3", work(20) }
