-- error: segment-no-kind.lua:2: segment: kind is missing (e.g. kind = "work")
return workout { name = "x", segment { duration = 30 } }
