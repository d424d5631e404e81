-- error: rounds-huge.lua:2: rounds: count must be at most 1000000, got 1000000000000
return workout { name = "x", rounds(1e12, { work(1) }) }
