-- error: segment-on-end-number.lua:2: segment: on_end must be a function, got 1
return workout { name = "x", segment { kind = "work", duration = 10, on_end = 1 } }
