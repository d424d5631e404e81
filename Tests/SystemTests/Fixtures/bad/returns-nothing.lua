-- error: returns-nothing.lua:2: the routine must return workout { … }, got nil
local x = 1
