-- error: too-many-arguments.lua:2: work: takes at most 2 arguments, got 3
return workout { name = "x", work(20, {}, {}) }
