-- error: workout-bad-countdown.lua:2: workout: countdown must be a whole number of seconds from 0 to 60, got 100
return workout { name = "x", work(20), countdown = 100 }
