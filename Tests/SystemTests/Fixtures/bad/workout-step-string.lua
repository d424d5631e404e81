-- error: workout-step-string.lua:2: workout: step 1 must be a step such as work(20) or rounds(…), got "work"
return workout { name = "x", "work" }
