-- error: segment-not-table.lua:2: segment: its argument must be a table, got "work"
return workout { name = "x", segment("work", 30) }
