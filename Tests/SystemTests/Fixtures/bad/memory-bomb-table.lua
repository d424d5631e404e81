-- error: memory-bomb-table.lua:3: memory limit of 64 MiB reached
local t = {}
for i = 1, 1e9 do t[i] = { i } end
