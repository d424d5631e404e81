-- error: memory-bomb-gc-stopped.lua:4: memory limit of 64 MiB reached
collectgarbage("stop")
local t = {}
for i = 1, 1e9 do t[i] = "item " .. i end
