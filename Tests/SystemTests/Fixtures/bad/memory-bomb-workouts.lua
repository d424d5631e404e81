-- error: memory-bomb-workouts.lua:2: memory limit of 64 MiB reached
for i = 1, 1e9 do workout { name = "x", work(1) } end
