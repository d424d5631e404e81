-- error: duration-missing.lua:2: prep: duration must be a number of seconds or a string like "1:30", got no value
return workout { name = "x", prep() }
