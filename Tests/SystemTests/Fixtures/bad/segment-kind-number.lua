-- error: segment-kind-number.lua:2: segment: kind must be a non-empty string, got 5
return workout { name = "x", segment { kind = 5, duration = 10 } }
