-- error: segment-info-string.lua:2: segment: info must be a table, got "fast"
return workout { name = "x", segment { kind = "work", duration = 10, info = "fast" } }
