-- error: rounds-fraction.lua:2: rounds: count must be a positive integer, got 2.5
return workout { name = "x", rounds(2.5, { work(20) }) }
