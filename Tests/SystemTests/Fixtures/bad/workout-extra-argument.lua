-- error: workout-extra-argument.lua:2: workout: takes at most 1 argument, got 2
return workout({ name = "x", work(20) }, { name = "y" })
