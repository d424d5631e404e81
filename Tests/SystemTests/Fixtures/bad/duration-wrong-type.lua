-- error: duration-wrong-type.lua:2: work: duration must be a number of seconds or a string like "1:30", got true
return workout { name = "x", work(true) }
