-- error: returns-step.lua:2: the routine must return workout { … }, got a step
return work(20)
