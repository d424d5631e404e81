-- error: rounds-count-negative.lua:2: rounds: count must be a positive integer, got -2
return workout { name = "x", rounds(-2, { work(20) }) }
