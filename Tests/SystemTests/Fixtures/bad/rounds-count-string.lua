-- error: rounds-count-string.lua:2: rounds: count must be a positive integer, got "3"
return workout { name = "x", rounds("3", { work(20) }) }
