-- error: rounds-steps-not-table.lua:2: rounds: steps must be a list of steps such as { work(20), rest(10) }, got a step
return workout { name = "x", rounds(2, work(20)) }
