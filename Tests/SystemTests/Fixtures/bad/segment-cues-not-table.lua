-- error: segment-cues-not-table.lua:2: segment: cues must be a table, got "half"
return workout { name = "x", segment { kind = "work", duration = 10, cues = "half" } }
