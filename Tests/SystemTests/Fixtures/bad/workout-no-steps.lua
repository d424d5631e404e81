-- error: workout-no-steps.lua:2: workout: has no steps (add some, e.g. work(30), rest(10))
return workout { name = "Empty" }
