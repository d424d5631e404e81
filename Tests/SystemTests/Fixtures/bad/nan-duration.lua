-- error: nan-duration.lua:2: work: duration must be a finite number of seconds, got nan
return workout { name = "x", work(0/0) }
