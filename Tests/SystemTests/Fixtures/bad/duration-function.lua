-- error: duration-function.lua:2: work: duration must be a number of seconds or a string like "1:30", got function
return workout { name = "x", work(function() return 20 end) }
