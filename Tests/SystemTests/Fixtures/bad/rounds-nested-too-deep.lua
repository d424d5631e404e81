-- error: rounds-nested-too-deep.lua:3: rounds: blocks may nest at most 100 deep, got 101
local block = work(1)
for i = 1, 101 do block = rounds(1, { block }) end
return workout { name = "x", block }
