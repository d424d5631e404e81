-- error: rounds-not-a-step.lua:2: rounds: step 2 must be a step such as work(20) or rounds(…), got 10
return workout { name = "x", rounds(2, { work(20), 10 }) }
