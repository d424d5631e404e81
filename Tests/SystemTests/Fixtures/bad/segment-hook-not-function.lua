-- error: segment-hook-not-function.lua:2: segment: on_start must be a function, got true
return workout { name = "x", segment { kind = "work", duration = 30, on_start = true } }
