-- error: segment-duration-table.lua:2: segment: duration must be a number of seconds or a string like "1:30", got table
return workout { name = "x", segment { kind = "work", duration = {} } }
