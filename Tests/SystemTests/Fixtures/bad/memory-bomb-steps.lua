-- error: memory-bomb-steps.lua:3: memory limit of 64 MiB reached
-- Lua collects the step objects, but the engine keeps every step until loading ends.
for i = 1, 1e9 do work(1, "Step " .. i) end
