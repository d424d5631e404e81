-- error: segment-no-duration.lua:2: segment: duration is missing (e.g. duration = 30, or open = true)
return workout { name = "x", segment { kind = "work" } }
