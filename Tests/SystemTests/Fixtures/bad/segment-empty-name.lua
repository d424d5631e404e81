-- error: segment-empty-name.lua:2: segment: name must be a non-empty string, got ""
return workout { name = "x", segment { kind = "work", duration = 10, name = "" } }
