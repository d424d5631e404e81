-- error: rest-extra-argument.lua:2: rest: takes at most 3 arguments, got 4
return workout { name = "x", rest(10, "Rest", {}, "more") }
