-- error: rounds-zero-rest-between.lua:2: rounds: rest_between must be more than 0 seconds, got 0
return workout { name = "x", rounds(2, { work(20) }, { rest_between = 0 }) }
