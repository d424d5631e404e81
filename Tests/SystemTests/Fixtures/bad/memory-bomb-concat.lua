-- error: memory-bomb-concat.lua: memory limit of 64 MiB reached
local parts = {}
for i = 1, 25 do parts[i] = string.rep("x", 4 * 1024 * 1024) end
local s = table.concat(parts)
