-- error: cue-bad-value.lua:2: segment: the cue at 10 must be a string or a function, got 5
return workout { name = "x", segment { kind = "work", duration = 30, cues = { [10] = 5 } } }
