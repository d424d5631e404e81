-- error: segment-extra-argument.lua:2: segment: takes at most 1 argument, got 2
return workout { name = "x", segment({ kind = "work", duration = 10 }, 2) }
