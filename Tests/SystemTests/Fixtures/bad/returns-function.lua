-- error: returns-function.lua:2: the routine must return workout { … }, got function
return function() return workout { name = "x", work(20) } end
