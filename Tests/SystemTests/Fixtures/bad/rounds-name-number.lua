-- error: rounds-name-number.lua:2: rounds: name must be a non-empty string, got 5
return workout { name = "x", rounds(2, { work(20) }, { name = 5 }) }
