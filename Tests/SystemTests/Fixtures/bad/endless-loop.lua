-- error: endless-loop.lua:3: instruction limit reached (an endless loop?)
local n = 0
while true do n = n + 1 end
