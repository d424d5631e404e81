-- error: name-wrong-type.lua:2: work: name must be a non-empty string, got 5
return workout { name = "x", work(20, 5) }
