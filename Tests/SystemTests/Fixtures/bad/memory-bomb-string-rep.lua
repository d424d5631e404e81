-- error: memory-bomb-string-rep.lua: memory limit of 64 MiB reached
local s = string.rep("x", 1e9)
