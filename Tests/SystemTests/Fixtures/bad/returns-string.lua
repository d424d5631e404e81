-- error: returns-string.lua:2: the routine must return workout { … }, got "workout"
return "workout"
