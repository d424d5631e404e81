-- error: workout-hole.lua:3: workout: step 2 is nil (is a variable misspelt?)
local jumps
return workout { name = "x", work(20), jumps, rest(10) }
