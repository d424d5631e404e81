-- error: cue-half-number.lua:2: segment: the cue at "half" must be a string or a function, got 5
return workout { name = "x", segment { kind = "work", duration = 10, cues = { half = 5 } } }
