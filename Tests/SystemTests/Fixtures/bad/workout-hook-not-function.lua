-- error: workout-hook-not-function.lua:2: workout: on_finish must be a function, got "done"
return workout { name = "x", work(20), on_finish = "done" }
