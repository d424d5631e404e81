-- error: memory-bomb-print.lua:3: memory limit of 64 MiB reached
-- Lines printed while loading are kept for the log; they count too.
for i = 1, 1e9 do print("a line of text that the engine keeps", i) end
