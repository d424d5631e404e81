-- error: rounds-count-nan.lua:2: rounds: count must be a positive integer, got nan
return workout { name = "x", rounds(0/0, { work(20) }) }
