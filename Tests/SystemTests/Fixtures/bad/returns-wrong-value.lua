-- error: returns-wrong-value.lua:2: the routine must return workout { … }, got table
return { name = "x" }
